/**
 * `larkit event list | schema <key> | consume <key...> | status | stop`: the suite's events, received over the
 * app's long connection. One background hub per app holds the connection (`larkit event hub`, started by the
 * first `consume` in a terminal) and fans events out to every `consume` over a Unix socket.
 */
import { join } from "node:path";
import * as z from "zod";
import { flag, type FlagSpec, type FlagValues } from "../../shortcuts/declare.ts";
import { readOnlyInTurns, refusedInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { EVENT_KEYS, type EventEnvelope, EventEnvelopeSchema, eventKey } from "../event/catalog.ts";
import { HUB_LAUNCHED_ENV, hubPaths, probeHub } from "../event/protocol.ts";
import { emitLine, emitSuccess, emitText } from "../output/emit.ts";
import { errors, larkitError, toLarkitError } from "../output/errors.ts";
import { applyJq, checkJq } from "../output/formats/jq.ts";
import { resolveOutputPath } from "../local_paths.ts";
import { untilAborted } from "../provider.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { emitOutput, jqFlag, LIST_FORMATS, listFlags } from "./envelope_output.ts";
import type { RemotePolicy } from "../../rpc/policy.ts";
import { ENDPOINT_PATH } from "../event/connection.ts";

export const HUB_IDLE_ENV = "LARKIT_EVENT_HUB_IDLE_MS";

const CONSUME_HELP = `
Prints each matching event as one JSON line (the suite's v2 envelope: {schema, header:{event_id, event_type,
create_time, app_id, tenant_key}, event}) on stdout, and "[event] ready" on stderr once subscribed.

It stops, exit 0, after --max-events events, or at --timeout when at least one event arrived; --timeout with
no event at all is a "timeout" error (exit 4); Ctrl-C/SIGTERM exit 130/143 (turn/interrupt in an agent-server
turn). Stdin is not read: started with it at its end (< /dev/null, cron, a harness) it runs all the same.

--param k=v keeps events whose field k inside "event" (a dotted path) equals v, e.g.
  --param message.chat_id=oc_xxx. Repeatable; all must match.
--output-dir DIR writes each event to DIR/<event_id>.json instead, and prints {event_id, event_type, file}.

An event is acknowledged to the suite only after it was printed (or written). One background hub per app
holds the long connection and is started by the first consume in a terminal; inside an agent-server turn a
hub must already run. Events a consumer left unacknowledged (up to 1,000) go to the next consumer that matches
them. The hub exits after \`larkit event stop\`, 5 seconds after its last consumer left (${HUB_IDLE_ENV} sets
the milliseconds), or at once when an event arrives with no consumer left, so the suite hands it to the app's
other connections.
`;

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** `30s`, `500ms`, `2m`, `1h`, or bare seconds, to milliseconds. */
export function parseDuration(raw: string): number | undefined {
  const m = DURATION.exec(raw.trim());
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? "s"] ?? 1000;
  return Math.round(Number(m[1]) * unit);
}

/** A duration flag (`30s`, `500ms`, `2m`) as milliseconds. */
const durationSchema = z.pipe(
  z.optional(z.string()),
  z.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const ms = parseDuration(v);
    if (ms === undefined || ms <= 0) {
      ctx.issues.push({ code: "custom", input: v, message: `expected a duration like 30s, 500ms or 2m` });
      return z.NEVER;
    }
    return ms;
  }),
);

/** `event consume`'s flags, each checked by its own schema when the parse hands it over. */
const CONSUME_FLAGS = {
  param: {
    kind: "string",
    description: "keep events whose event.<k> equals v (repeatable)",
    placeholder: "k=v",
    repeatable: true,
    schema: z._default(z.array(z.string().check(z.regex(/^[^=]+=/, "expected k=v"))), []),
  } satisfies FlagSpec<string[]>,
  jq: flag.string("jq filter applied to each event", { placeholder: "expr" }),
  "max-events": {
    kind: "integer",
    description: "stop after n events",
    placeholder: "n",
    schema: z.optional(
      z.pipe(z.string().check(z.regex(/^\d+$/, "must be a positive whole number")), z.transform(Number)),
    )
      .check(z.refine((n) => n === undefined || n > 0, "must be a positive whole number")),
  } satisfies FlagSpec<number | undefined>,
  timeout: {
    kind: "string",
    description: "stop after this long (30s, 500ms, 2m); no event by then is exit 4",
    placeholder: "duration",
    schema: durationSchema,
  } satisfies FlagSpec<number | undefined>,
  "output-dir": flag.string("write each event to <dir>/<event_id>.json instead of stdout", {
    placeholder: "dir",
  }),
  filter: {
    kind: "string",
    description: "keep events whose event type matches this regular expression",
    placeholder: "regex",
    schema: z.optional(z.string()).check(z.refine((v) => {
      if (v === undefined) return true;
      try {
        new RegExp(v);
        return true;
      } catch {
        return false;
      }
    }, "not a regular expression")),
  } satisfies FlagSpec<string | undefined>,
  quiet: flag.boolean("no [event] status lines on stderr"),
  "dry-run": flag.boolean("show the subscription without connecting"),
};
type ConsumeOpts = FlagValues<typeof CONSUME_FLAGS>;

const KEY = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/** The app the hub is for, and its socket: one hub per app id. */
async function appHub(ctx: RunContext) {
  const account = await ctx.credentials().account();
  if (!account.appId) {
    throw errors.config("events need app credentials: the credentials in use name no app", {
      hint:
        "configure the app: larkit config init --app-id <id> --app-secret-stdin, or LARKIT_APP_ID/LARKIT_APP_SECRET",
    });
  }
  return { account, appId: account.appId, ...hubPaths(ctx.p.paths, account.appId) };
}

function hubArgv(ctx: RunContext): string[] {
  return [
    ...ctx.p.system.selfCommand,
    ...(ctx.globals.profile ? ["--profile", ctx.globals.profile] : []),
    "event",
    "hub",
  ];
}

/** A hub run by another larkit version: restarted by this one (its consumers reconnect), so no old code serves. */
function staleHub(ctx: RunContext, s: { version?: string } | undefined): boolean {
  return s !== undefined && s.version !== ctx.p.version;
}

async function ensureHub(ctx: RunContext, hub: Awaited<ReturnType<typeof appHub>>): Promise<void> {
  if (await probeHub(hub.socket) === "live") {
    // A turn cannot start a hub, so it keeps whichever runs; `event status` says it is stale.
    if (ctx.p.approver) return;
    const { hubStatus, stopHub } = await import("../event/client.ts");
    const running = await hubStatus(hub.socket);
    if (!staleHub(ctx, running)) return;
    await ctx.diag.info(
      `[event] the hub runs larkit ${running?.version ?? "(older)"}; restarting it with ${ctx.p.version}`,
    );
    await stopHub(hub.socket, ctx.p.clock);
  }
  if (ctx.p.approver) {
    throw errors.config(`no event hub runs for app ${hub.appId}, and a turn does not start one`, {
      hint:
        "start it from a terminal on this machine: larkit event consume <key> (it keeps running in the background)",
    });
  }
  const { startHub } = await import("../event/client.ts");
  await ctx.p.files.mkdir(hub.dir, { mode: 0o700 });
  await startHub(hubArgv(ctx), hub.socket, ctx.p.clock, hub.log);
}

function parseParams(raw: string[]): Record<string, string> {
  return Object.fromEntries(raw.map((kv) => {
    const at = kv.indexOf("=");
    return [kv.slice(0, at), kv.slice(at + 1)];
  }));
}

type StopReason = "timeout" | "abort";

async function consume(ctx: RunContext, keys: string[], opts: ConsumeOpts): Promise<void> {
  for (const key of keys) {
    if (!KEY.test(key)) {
      throw errors.validation(`not an event key: "${key}"`, { hint: "see larkit event list" });
    }
  }
  const params = parseParams(opts.param);
  if (opts.jq !== undefined) await checkJq(opts.jq);
  const outputDir = opts["output-dir"] === undefined
    ? undefined
    : await resolveOutputPath(ctx.p, "output-dir", opts["output-dir"]);
  const hub = await appHub(ctx);
  if (opts["dry-run"]) {
    await emitSuccess(ctx, {
      data: {
        app_id: hub.appId,
        keys,
        params,
        ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
        hub: {
          socket: hub.socket,
          running: await probeHub(hub.socket) === "live",
          command: hubArgv(ctx).slice(-2),
        },
        endpoint: { method: "POST", url: `${hub.account.endpoints.open}${ENDPOINT_PATH}` },
        ...(outputDir ? { output_dir: outputDir } : {}),
      },
    });
    return;
  }
  for (const key of keys) {
    if (!eventKey(key)) await ctx.diag.warn(`${key} is not in \`larkit event list\`; consuming it anyway`);
  }
  await ensureHub(ctx, hub);
  if (outputDir) await ctx.p.files.mkdir(outputDir);
  const { HubClient } = await import("../event/client.ts");
  // The hub started but may be gone again: it failed, and its log says why.
  const client = await HubClient.connect(hub.socket).catch((e: Error) => {
    throw larkitError("network", e.message, { hint: `see ${hub.log}` });
  });
  const stop = new AbortController();
  let reason: StopReason | undefined;
  const stopWith = (r: StopReason) => {
    reason ??= r;
    stop.abort();
  };
  const stopped = untilAborted(stop.signal);
  const onAbort = () => stopWith("abort");
  ctx.p.signal.addEventListener("abort", onAbort);
  let count = 0;
  try {
    await client.send({
      op: "subscribe",
      keys,
      params,
      ...(opts.filter !== undefined ? { pattern: opts.filter } : {}),
    });
    // Standard input means nothing here: cron, `< /dev/null` and agent harnesses start with it at its end, and
    // an agent-server turn has none of its own. Consuming ends at --max-events, --timeout or a signal.
    if (opts.timeout !== undefined) {
      ctx.p.clock.sleep(opts.timeout, stop.signal).then(() => stopWith("timeout"), () => {});
    }
    let next = client.next();
    while (!stop.signal.aborted) {
      const msg = await Promise.race([next, stopped.then(() => "stopped" as const)]);
      if (msg === "stopped") break;
      if (msg === undefined) {
        throw errors.network("the event hub closed the connection", {
          hint: `see ${hub.log}; larkit event status shows whether it still runs`,
        });
      }
      next = client.next();
      if (msg.op === "error") {
        throw larkitError(msg.type ?? "network", msg.message, { hint: msg.hint ?? `see ${hub.log}` });
      }
      if (msg.op === "ready") {
        if (!opts.quiet) await ctx.diag.info("[event] ready");
        continue;
      }
      if (msg.op !== "event") continue;
      const event = EventEnvelopeSchema.parse(msg.event);
      await deliver(ctx, event, opts, outputDir);
      await client.send({ op: "ack", event_id: event.header.event_id });
      count++;
      if (opts["max-events"] !== undefined && count >= opts["max-events"]) return;
    }
  } finally {
    ctx.p.signal.removeEventListener("abort", onAbort);
    stop.abort();
    client.close();
  }
  if (reason === "timeout" && count === 0) {
    throw errors.timeout(`no matching event arrived within ${opts.timeout} ms`, {
      hint: "check the app subscribes to the event in its console, or raise --timeout",
    });
  }
  // Ctrl-C or turn/interrupt: the run reports the interruption itself (its abort reason).
  if (reason === "abort") throw toLarkitError(ctx.p.signal.reason);
}

async function deliver(ctx: RunContext, event: EventEnvelope, opts: ConsumeOpts, outputDir?: string) {
  if (outputDir) {
    const file = join(outputDir, `${event.header.event_id.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`);
    await ctx.p.files.writeFileAtomic(file, JSON.stringify(event, null, 2) + "\n");
    const line = { event_id: event.header.event_id, event_type: event.header.event_type, file };
    if (opts.jq === undefined) return await emitLine(ctx, line);
    await emitText(ctx, await applyJq(line, opts.jq, ctx.p.signal));
    return;
  }
  if (opts.jq !== undefined) {
    const out = await applyJq(event, opts.jq, ctx.p.signal);
    if (out !== "") await emitText(ctx, out);
    return;
  }
  await emitLine(ctx, event);
}

async function runHub(ctx: RunContext): Promise<void> {
  const hub = await appHub(ctx);
  const chain = ctx.credentials();
  if (!chain.appSecret) throw errors.config("the credentials in use hold no app secret");
  const appSecret = await chain.appSecret();
  const idle = Number(ctx.p.env.get(HUB_IDLE_ENV) ?? "");
  const launchedAt = Number(ctx.p.env.get(HUB_LAUNCHED_ENV) ?? "");
  const [{ EventHub, DEFAULT_IDLE_MS }, { LongConnection }, { withFileLock }] = await Promise.all([
    import("../event/hub.ts"),
    import("../event/connection.ts"),
    import("../auth/file_lock.ts"),
  ]);
  await ctx.p.files.mkdir(hub.dir, { mode: 0o700 });
  const log = (line: string) => {
    const stamped = `${new Date(ctx.p.clock.now()).toISOString()} ${line}\n`;
    void ctx.p.files.appendTextFile(hub.log, stamped).catch(() => {});
    void ctx.diag.debug(line);
  };
  const eventHub = new EventHub({
    appId: hub.appId,
    socketPath: hub.socket,
    clock: ctx.p.clock,
    pid: ctx.p.processes.pid,
    idleMs: Number.isFinite(idle) && idle > 0 ? idle : DEFAULT_IDLE_MS,
    version: ctx.p.version,
    log,
    exclusive: (fn) => withFileLock(ctx.p, `${hub.socket}.lock`, fn),
    ...(Number.isFinite(launchedAt) && launchedAt > 0 ? { launchedAt } : {}),
    connect: (handlers) =>
      new LongConnection({
        openOrigin: hub.account.endpoints.open,
        appId: hub.appId,
        appSecret,
        fetch: ctx.p.fetch,
        userAgent: `larkit/${ctx.p.version}`,
        clock: ctx.p.clock,
        random: () => ctx.p.random.bytes(4).reduce((n, b) => n * 256 + b, 0) / 2 ** 32,
        log,
        ...handlers,
      }),
  });
  const onAbort = () => eventHub.stop("interrupted");
  ctx.p.signal.addEventListener("abort", onAbort);
  log(`event hub for ${hub.appId} starting on ${hub.socket}`);
  try {
    const reason = await eventHub.run();
    await emitSuccess(ctx, { data: { app_id: hub.appId, stopped: reason } });
  } finally {
    ctx.p.signal.removeEventListener("abort", onAbort);
  }
}

/**
 * `event/subscribe` and `event/unsubscribe` for an agent server of this run's app: they join the app's running
 * hub and never start one.
 */
export async function agentEventMethods(ctx: RunContext, policy?: RemotePolicy) {
  const [{ eventMethods }, { hubFeed }] = await Promise.all([
    import("../../rpc/events.ts"),
    import("../event/feed.ts"),
  ]);
  return eventMethods(hubFeed(() => appHub(ctx)), policy);
}

/**
 * The event commands join the `event` service command (which also holds the registry's `event outbound_ip
 * list` and the `event +subscribe` shortcut), so they are built only when the command line names `event`:
 * `cli/sources.ts` declares the service and loads this module for that run alone.
 */
const list = defineCommand({
  words: ["event", "list"],
  description: "event keys larkit knows, with one-line descriptions",
  flags: listFlags(),
  turn: readOnlyInTurns("lists the embedded event catalogue"),
  async action(ctx, { flags }) {
    await emitOutput(ctx, ["event", "list"], LIST_FORMATS, flags, {
      data: EVENT_KEYS.map(({ key, description, scope }) => ({ key, description, scope })),
      meta: { count: EVENT_KEYS.length },
      columns: ["key", "scope", "description"],
    });
  },
});

const schema = defineCommand({
  words: ["event", "schema"],
  description: "the payload shape of one event key",
  flags: { jq: jqFlag() },
  args: [{ name: "key", description: "event key, e.g. im.message.receive_v1", required: true }],
  turn: readOnlyInTurns("reads the embedded event catalogue"),
  async action(ctx, { flags, args: [key] }) {
    const found = eventKey(key);
    if (!found) throw errors.validation(`unknown event key: ${key}`, { hint: "see larkit event list" });
    await emitOutput(ctx, ["event", "schema"], ["json"], flags, {
      data: {
        key: found.key,
        description: found.description,
        scope: found.scope,
        envelope: {
          schema: "2.0",
          header: ["event_id", "event_type", "create_time", "token", "app_id", "tenant_key"],
        },
        event: found.payload,
      },
    });
  },
});

const consumeCmd = defineCommand({
  words: ["event", "consume"],
  description: "stream matching events as NDJSON on stdout",
  flags: CONSUME_FLAGS,
  args: [{
    name: "key",
    description: "event keys to receive, e.g. im.message.receive_v1 (none: every event)",
    variadic: true,
  }],
  helpAfter: CONSUME_HELP,
  turn: readOnlyInTurns("receives events from a running hub; a turn never starts one"),
  async action(ctx, { flags, args }) {
    await consume(ctx, args, flags);
  },
});

const status = defineCommand({
  words: ["event", "status"],
  description: "whether the app's event hub runs, and its counters",
  flags: { jq: jqFlag() },
  turn: readOnlyInTurns("asks the hub for its counters"),
  async action(ctx, { flags }) {
    const hub = await appHub(ctx);
    const { hubStatus } = await import("../event/client.ts");
    const s = await hubStatus(hub.socket);
    const stale = staleHub(ctx, s)
      ? {
        stale: true,
        hint: `the hub runs larkit ${s?.version ?? "older than this"}, this is ${ctx.p.version}: the next ` +
          "`larkit event consume` restarts it, or now: larkit event stop",
      }
      : {};
    await emitOutput(ctx, ["event", "status"], ["json"], flags, {
      data: { running: s !== undefined, socket: hub.socket, ...(s ? { hub: s } : {}), ...stale },
    });
  },
});

const stop = defineCommand({
  words: ["event", "stop"],
  description: "stop the app's event hub and its long connection",
  flags: {},
  turn: refusedInTurns("stops a background process"),
  async action(ctx) {
    const hub = await appHub(ctx);
    const { stopHub } = await import("../event/client.ts");
    const stopped = await stopHub(hub.socket, ctx.p.clock);
    await emitSuccess(ctx, { data: { stopped, socket: hub.socket } });
  },
});

const hubCmd = defineCommand({
  words: ["event", "hub"],
  description: "run the app's event hub in this process (what consume starts)",
  flags: {},
  hidden: true,
  turn: refusedInTurns("runs a background process and a socket"),
  action: (ctx) => runHub(ctx),
});

/**
 * The event commands join the `event` service command (which also holds the registry's `event outbound_ip
 * list` and the `event +subscribe` shortcut), so they are built only when the command line names `event`:
 * `cli/sources.ts` declares the service and loads this module for that run alone.
 */
export const eventCommands: CommandModule = {
  groups: [],
  commands: [list, schema, consumeCmd, status, stop, hubCmd],
};
