/**
 * A consumer's side of the hub socket, and starting the hub when none answers. The hub is larkit itself
 * (`larkit [--profile P] event hub`) started detached, so it outlives the command that needed it; every later
 * command of the same app reaches the same hub through its socket.
 */
import { startDetached, waitFor } from "../detached.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Clock } from "../provider.ts";
import {
  type ClientMessage,
  HUB_LAUNCHED_ENV,
  type HubMessage,
  HubMessageSchema,
  type HubStatus,
  lines,
  probeHub,
  writeAll,
} from "./protocol.ts";

/** How long a freshly started hub may take to listen (a cold `deno run` type-checks first). */
export const HUB_START_TIMEOUT_MS = 60_000;
/** How often a starting or stopping hub's socket is looked at. */
const HUB_POLL_MS = 25;

export class HubClient {
  readonly #conn: Deno.UnixConn;
  readonly #incoming: AsyncGenerator<HubMessage>;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#incoming = this.#read();
  }

  static async connect(socketPath: string): Promise<HubClient> {
    try {
      return new HubClient(await Deno.connect({ transport: "unix", path: socketPath }));
    } catch (e) {
      throw errors.network(
        `cannot reach the event hub on ${socketPath}: ${e instanceof Error ? e.message : e}`,
      );
    }
  }

  /** The next message from the hub; undefined when the hub closed the connection. */
  async next(): Promise<HubMessage | undefined> {
    const r = await this.#incoming.next();
    return r.done ? undefined : r.value;
  }

  async send(msg: ClientMessage): Promise<void> {
    try {
      await writeAll(this.#conn, JSON.stringify(msg) + "\n");
    } catch (e) {
      throw errors.network(`the event hub went away: ${e instanceof Error ? e.message : e}`);
    }
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Closed by the hub.
    }
  }

  async *#read(): AsyncGenerator<HubMessage> {
    try {
      for await (const line of lines(this.#conn.readable)) {
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          throw errors.internal("the event hub sent a line that is not JSON");
        }
        const msg = HubMessageSchema.safeParse(json);
        if (!msg.success) throw errors.internal("the event hub sent a message larkit does not know");
        yield msg.data;
      }
    } catch (e) {
      if (e instanceof LarkitError) throw e;
      // A reset connection is the same as the hub closing it.
    }
  }
}

/** Asks a running hub for its status; undefined when none answers. */
export async function hubStatus(socketPath: string): Promise<HubStatus | undefined> {
  if (await probeHub(socketPath) !== "live") return undefined;
  const client = await HubClient.connect(socketPath);
  try {
    await client.send({ op: "status" });
    const reply = await client.next();
    if (reply?.op !== "status") throw errors.internal("the event hub did not answer the status request");
    return reply.status;
  } finally {
    client.close();
  }
}

/** Asks a running hub to stop and waits until its socket is gone; false when none was running. */
export async function stopHub(socketPath: string, clock: Clock): Promise<boolean> {
  if (await probeHub(socketPath) !== "live") return false;
  const client = await HubClient.connect(socketPath);
  try {
    await client.send({ op: "stop" });
    while (await client.next()) {
      // Drain until the hub closes the connection.
    }
  } finally {
    client.close();
  }
  if (
    !await waitFor(
      clock,
      HUB_START_TIMEOUT_MS,
      HUB_POLL_MS,
      async () => await probeHub(socketPath) !== "live",
    )
  ) {
    throw errors.internal(`the event hub on ${socketPath} did not stop in time`);
  }
  return true;
}

/**
 * Starts the hub detached with `argv` and waits until it listens on `socketPath` (its own, or one another
 * consumer started at the same moment: the hub that loses that race exits without listening).
 */
export async function startHub(
  argv: string[],
  socketPath: string,
  clock: Clock,
  logFile: string,
): Promise<void> {
  // Taken before looking once more: a hub that listens from now on won the race against ours, and one that
  // listened before this moment answers now (or has stopped, and ours is then the hub this consumer needs).
  const launchedAt = clock.now();
  if (await probeHub(socketPath) === "live") return;
  const started = await startDetached(
    argv,
    clock,
    HUB_START_TIMEOUT_MS,
    HUB_POLL_MS,
    async () => await probeHub(socketPath) === "live",
    { [HUB_LAUNCHED_ENV]: String(launchedAt) },
  );
  if (started.live) return;
  throw errors.internal(
    started.exitCode === undefined
      ? `the event hub did not listen on ${socketPath} in time`
      : `the event hub exited with code ${started.exitCode} before listening on ${socketPath}`,
    { hint: `see ${logFile}, or run \`larkit event hub\` in a terminal to see why it cannot start` },
  );
}
