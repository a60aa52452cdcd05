/**
 * What the event hub and its consumers say over the hub's Unix socket: one JSON object per line, each side
 * parsed with zod. A consumer subscribes once, receives `ready` when the hub's long connection is up, then
 * `event` lines, and answers each with `ack` once the event is safe (printed, or written to a file).
 */
import { join } from "node:path";
import * as z from "zod";
import type { Paths } from "../provider.ts";

export const ClientMessageSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("subscribe"),
    keys: z.array(z.string()),
    params: z.record(z.string(), z.string()),
    /** A regular expression the event type must match (`--filter`). */
    pattern: z.optional(z.string()),
  }),
  z.object({ op: z.literal("ack"), event_id: z.string().check(z.minLength(1)) }),
  z.object({ op: z.literal("status") }),
  z.object({ op: z.literal("stop") }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const HubStatusSchema = z.object({
  app_id: z.string(),
  pid: z.number(),
  started_at: z.string(),
  connection: z.enum(["connecting", "connected", "reconnecting", "failed", "stopped"]),
  connects: z.number(),
  consumers: z.number(),
  pending: z.number(),
  received: z.number(),
  delivered: z.number(),
  acked: z.number(),
  duplicates: z.number(),
  error: z.optional(z.string()),
  /** The larkit that runs the hub; absent from hubs started before hubs reported it (older still). */
  version: z.optional(z.string()),
});
export type HubStatus = z.infer<typeof HubStatusSchema>;

export const HubMessageSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("ready") }),
  z.object({ op: z.literal("event"), event: z.unknown() }),
  z.object({ op: z.literal("status"), status: HubStatusSchema }),
  z.object({ op: z.literal("stopping") }),
  z.object({
    op: z.literal("error"),
    message: z.string(),
    hint: z.optional(z.string()),
    type: z.optional(z.enum(["auth", "network"])),
  }),
]);
export type HubMessage = z.infer<typeof HubMessageSchema>;

/** Longest line either side accepts; an event is at most a few hundred KiB. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** One hub per app: its socket (0600) and log sit in `<stateDir>/events/`. */
export function hubPaths(paths: Paths, appId: string): { dir: string; socket: string; log: string } {
  const dir = join(paths.stateDir, "events");
  const safe = appId.replace(/[^A-Za-z0-9_.-]/g, "_");
  return { dir, socket: join(dir, `${safe}.sock`), log: join(dir, `${safe}.log`) };
}

/**
 * Lines of a byte stream, without their newline. A line longer than `max` bytes ends the stream with an
 * error: the peer is not speaking this protocol.
 */
export async function* lines(
  readable: ReadableStream<Uint8Array>,
  max = MAX_LINE_BYTES,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of readable) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
    }
    if (buffered.length > max) throw new Error(`a line longer than ${max} bytes`);
  }
  if (buffered.length > 0) yield buffered;
}

/** Writes all of `bytes` (a socket write may take only part of them). */
export async function writeAll(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/**
 * Set in a hub's environment by the consumer that launches it: the moment (ms since the epoch) the consumer
 * found no hub and decided to start one. A hub launched so loses the start race to any hub that listened at
 * or after that moment, and exits instead of listening (see `EventHub`).
 */
export const HUB_LAUNCHED_ENV = "LARKIT_EVENT_HUB_LAUNCHED_AT";

const ListenedSchema = z.object({ pid: z.number(), at: z.number() });

/** Where a hub notes when it last took the socket path: it outlives the socket, which goes with its hub. */
function listenedPath(socketPath: string): string {
  return `${socketPath}.listened`;
}

/** When a hub last took the socket path (ms since the epoch); undefined when none ever did, or the note is unreadable. */
export async function lastListened(socketPath: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(listenedPath(socketPath));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  try {
    return ListenedSchema.parse(JSON.parse(text)).at;
  } catch {
    // Cut short by a crash mid-write: no hub can be said to have listened, as before the note existed.
    return undefined;
  }
}

/** Notes that the hub `pid` took the socket path at `at`. */
export async function noteListened(socketPath: string, pid: number, at: number): Promise<void> {
  await Deno.writeTextFile(listenedPath(socketPath), JSON.stringify({ pid, at }) + "\n", { mode: 0o600 });
}

/** Whether something answers on the socket path: absent, live, or a stale file left by a killed hub. */
export async function probeHub(path: string): Promise<"absent" | "live" | "stale"> {
  try {
    await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "absent";
    throw e;
  }
  try {
    (await Deno.connect({ transport: "unix", path })).close();
    return "live";
  } catch {
    return "stale";
  }
}
