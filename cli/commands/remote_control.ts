/**
 * `larkit remote-control [start|stop|status] [--no-daemon]`: makes this machine reachable by the user's remote
 * devices through the relay. The work happens in a background app-server daemon reached through its Unix
 * socket (relay/daemon.ts); `--no-daemon` serves in this process until Ctrl-C instead. The account is
 * larkit's user login; app credentials are refused.
 *
 * The devices: `pair` (a pairing code for a new device), `clients [list|revoke <id>]` and `hosts [list|delete
 * <environment_id>] [--stale]` (this account's enrolled machines). `pair` and `clients` go through the daemon
 * when it runs (its enrollment is the one devices reach), else act in this process on the same persisted
 * enrollment; neither needs remote control enabled. `hosts` asks the relay directly.
 */
import { flag } from "../../shortcuts/declare.ts";
import type * as z from "zod";
import { refusedInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { errors, larkitError, toLarkitError } from "../output/errors.ts";
import { untilAborted } from "../provider.ts";
import { type GetAccount, requireUserAccount } from "../../relay/enroll.ts";
import type { RemoteControlStatus } from "../../relay/status.ts";
import { normalizeRelayBaseUrl } from "../../relay/url.ts";
import type { RemotePolicy } from "../../rpc/policy.ts";
import { type BuiltServer, remotePolicyArgs, remotePolicyOf, type ServerLog } from "./app_server.ts";
import { METHODS } from "../../rpc/protocol.ts";

type RemoteControlClient = z.infer<(typeof METHODS)["remoteControl/client/list"]["result"]>["data"][number];
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { emitOutput, jqFlag } from "./envelope_output.ts";

/** The command's result as its envelope, through its --jq. */
type Emit = (parts: { data?: unknown; wrote?: boolean }) => Promise<void>;
import { agentEventMethods } from "./event.ts";

/** The environment variable naming the relay base URL when `--relay-url` is not given. */
export const RELAY_URL_ENV = "LARKIT_RELAY_URL";

const HELP = `
The relay base URL is, in order: --relay-url, the ${RELAY_URL_ENV} environment variable, or the open-platform
origin of the account (e.g. https://open.feishu.cn). Only https on feishu.cn, larksuite.com, feishu-staging.cn,
larksuite-staging.com (and subdomains), or http/https on localhost and loopback addresses, are accepted.

start (the default) starts the background daemon when none answers on its socket, enables remote control and
waits up to --wait-ms for the relay connection. The daemon keeps its relay URL and credentials until it exits.
stop disables remote control (the socket to the relay is closed); the daemon keeps serving local clients on
its socket. As in the relay protocol, stopping does not revoke paired devices: they can reconnect once remote
control is started again. stop lists them (pairedClients, and a line on stderr) so that is never silent;
stop --revoke-clients revokes them all. stop --shutdown also ends the daemon.
status reports the daemon's remote-control status without starting anything.
Each prints one envelope: {mode, status, serverName, installationId, environmentId, daemon: {socket, running}}.

pair prints a pairing code (and its expiry) a new device redeems at the relay; --manual-code also asks for a
short numeric code. It works while remote control is disabled; the device reaches this machine once started.
  larkit remote-control pair                      {pairingCode, manualPairingCode, environmentId, expiresAt}
  larkit remote-control clients                   the devices paired with this machine, with lastSeenAt
  larkit remote-control clients revoke <id>       the relay refuses it from now on; its streams close at once
  larkit remote-control hosts [--stale]           this account's enrolled machines (--stale: offline, not this one)
  larkit remote-control hosts delete <env_id>     forget a machine at the relay and revoke its devices
  larkit remote-control hosts delete --stale      delete every stale machine
Times (expiresAt, lastSeenAt) are Unix seconds.
`;

/** The command's flag values as its steps read them. */
interface Options {
  daemon: boolean;
  relayUrl?: string;
  waitMs: number;
  shutdown: boolean;
  remoteReadOnly: boolean;
  remoteForbidService?: string;
  remoteOwnThreads: boolean;
  revokeClients: boolean;
  manualCode: boolean;
  stale: boolean;
}

type Action = "start" | "stop" | "status" | "pair" | "clients" | "hosts";

/** Flags that belong to one action only. */
const ACTION_FLAGS: [keyof Options, string, Action][] = [
  ["shutdown", "--shutdown", "stop"],
  ["revokeClients", "--revoke-clients", "stop"],
  ["manualCode", "--manual-code", "pair"],
  ["stale", "--stale", "hosts"],
  ["remoteReadOnly", "--remote-read-only", "start"],
  ["remoteForbidService", "--remote-forbid-service", "start"],
  ["remoteOwnThreads", "--remote-own-threads", "start"],
];

/** The relay account from the credential chain: a user login when there is one, otherwise the app (refused). */
export function accountFromCredentials(ctx: RunContext): GetAccount {
  return async () => {
    const chain = ctx.credentials();
    const account = await chain.account();
    if (!account.user || !(await chain.identities()).includes("user")) {
      return { accountId: account.appId ?? "", accessToken: "", kind: "app" };
    }
    const token = await chain.token("user", ctx.p.signal);
    return { accountId: account.user.openId, accessToken: token.token, kind: "user" };
  };
}

/** `--relay-url`, then `LARKIT_RELAY_URL`, then the account's open-platform origin; checked by the allow-list. */
export async function resolveRelayUrl(ctx: RunContext, flag?: string): Promise<string> {
  const url = flag ?? ctx.p.env.get(RELAY_URL_ENV) ?? (await ctx.credentials().account()).endpoints.open;
  return normalizeRelayBaseUrl(url).base;
}

/**
 * What every `app-server` serves: the relay host's app server, whose `remoteControl/*` methods can enable
 * remote control at run time. With `--remote-control` (the daemon `larkit remote-control start` spawns) the
 * relay URL is checked up front, remote control is enabled at start under the client name '' and
 * `daemon/shutdown` is served; otherwise the URL is resolved on first enable and the enrollment is keyed by
 * the first local client's name.
 */
export async function remoteControlServer(
  ctx: RunContext,
  opts: { relayUrl?: string; daemon: boolean; policy: RemotePolicy; shutdown: () => void },
): Promise<(log: ServerLog) => BuiltServer> {
  // Loaded here: the relay and SQLite would otherwise load for every larkit command.
  const [{ createRemoteControlHost }, { relayTimingFromEnv, shutdownMethods }] = await Promise.all([
    import("../../relay/host.ts"),
    import("../../relay/daemon.ts"),
  ]);
  const daemonUrl = opts.daemon ? await resolveRelayUrl(ctx, opts.relayUrl) : undefined;
  const events = await agentEventMethods(ctx, opts.policy);
  return (serverLog) => {
    const host = createRemoteControlHost({
      provider: ctx.p,
      baseUrl: daemonUrl ?? (() => resolveRelayUrl(ctx, opts.relayUrl)),
      getAccount: accountFromCredentials(ctx),
      runner: ctx.hooks.run,
      policy: opts.policy,
      methods: { ...events.methods, ...(opts.daemon ? shutdownMethods(opts.shutdown) : {}) },
      ...(opts.daemon ? { clientName: "", enableAtStart: true } : {}),
      timing: relayTimingFromEnv(ctx.p.env),
      log: (line) => void ctx.diag.info(line),
      serverLog,
    });
    return {
      server: host.appServer,
      close: () => {
        events.close();
        return host.close();
      },
    };
  };
}

function describe(s: RemoteControlStatus): string {
  switch (s.status) {
    case "connected":
      return `This machine is available for remote control as ${s.serverName}.`;
    case "connecting":
      return `Remote control is enabled on ${s.serverName} and still connecting.` +
        (s.error ? ` Last error: ${s.error.message}` + (s.error.hint ? ` (${s.error.hint})` : "") : "");
    case "errored":
      return `Remote control is enabled on ${s.serverName} but the connection is errored: ${
        s.error?.message ?? ""
      }` + (s.error?.hint ? ` (${s.error.hint})` : "");
    case "disabled":
      return `Remote control is disabled on ${s.serverName}.`;
  }
}

async function runForeground(
  ctx: RunContext,
  relayUrl: string,
  policy: RemotePolicy,
  out: Emit,
): Promise<void> {
  const { createRemoteControlHost } = await import("../../relay/host.ts");
  const { statusView } = await import("../../relay/control_methods.ts");
  const host = createRemoteControlHost({
    provider: ctx.p,
    baseUrl: relayUrl,
    getAccount: accountFromCredentials(ctx),
    runner: ctx.hooks.run,
    policy,
    clientName: "",
    log: (line) => void ctx.diag.debug(line),
  });
  const say = (line: string) => void ctx.diag.info(line);
  host.remote.status.subscribe((s) => say(describe(s)));
  try {
    say("Starting app-server with remote control enabled...");
    await host.remote.enable();
    say("Press Ctrl-C to stop.");
    await untilAborted(ctx.p.signal);
  } finally {
    await host.close();
  }
  await out({
    data: { mode: "foreground", ...statusView(host.remote.status.current) },
    wrote: true,
  });
}

async function runThroughDaemon(
  ctx: RunContext,
  action: "start" | "stop" | "status",
  opts: Options,
  out: Emit,
): Promise<void> {
  // start and stop change the relay connection before their result is shown.
  const emit = (data: unknown) => out({ data, wrote: action !== "status" });
  const daemon = await import("../../relay/daemon.ts");
  const { p } = ctx;
  const socket = daemon.daemonSocketPath(p.paths);
  const logFile = daemon.daemonLogPath(p.paths);
  let spawn: string[] | undefined;
  if (action === "start") {
    const relayUrl = await resolveRelayUrl(ctx, opts.relayUrl);
    // Refused before a daemon is started for nothing; the daemon checks again with its own credentials.
    requireUserAccount(await accountFromCredentials(ctx)());
    spawn = [
      ...daemon.daemonArgv(p.system.selfCommand, socket, relayUrl, ctx.globals.profile, logFile),
      ...remotePolicyArgs(remotePolicyOf(opts)),
    ];
  }
  const reached = await daemon.reachDaemon({
    socketPath: socket,
    version: p.version,
    clock: p.clock,
    spawn,
    logFile,
  });
  if (!reached) {
    // Stopped already; the devices paired with this machine are still reported (and revoked if asked).
    const paired = action === "stop" ? { pairedClients: await pairedWithoutDaemon(ctx, opts) } : {};
    await emit({
      mode: "daemon",
      status: "disabled",
      serverName: p.system.hostname,
      installationId: null,
      environmentId: null,
      ...paired,
      daemon: { socket, running: false },
    });
    return;
  }
  const { client, spawnedPid, stale } = reached;
  const running = {
    socket,
    running: true,
    version: client.serverVersion ?? null,
    ...(spawnedPid === undefined ? {} : { pid: spawnedPid }),
    ...(stale?.restarted ? { restarted_from: stale.version ?? null } : {}),
    ...(stale && !stale.restarted
      ? {
        stale: true,
        hint: `the daemon runs larkit ${stale.version ?? "older than this"}, this is ${p.version}: ` +
          "`larkit remote-control start` restarts it (or `larkit remote-control stop --shutdown`)",
      }
      : {}),
  };
  try {
    if (action === "start") {
      const { status, timedOut } = await daemon.enableAndSettle(client, p.clock, opts.waitMs);
      if (status.status === "errored") {
        throw larkitError(
          status.error?.subtype ?? "network",
          status.error?.message ?? "remote control errored",
          {
            hint: status.error?.hint,
          },
        );
      }
      await ctx.diag.info(describe(status));
      await emit({ mode: "daemon", ...status, timedOut, daemon: running });
      return;
    }
    const status = daemon.parseStatus(
      await client.call(action === "stop" ? "remoteControl/disable" : "remoteControl/status/read"),
    );
    const call: DeviceCall = (method, params) => client.call(method, params);
    const paired = action === "stop" ? { pairedClients: await pairedAfterStop(ctx, call, opts) } : {};
    if (action === "stop" && opts.shutdown) {
      await daemon.shutdownDaemon(client, socket, p.clock);
      await emit({ mode: "daemon", ...status, ...paired, daemon: { socket, running: false } });
      return;
    }
    await emit({ mode: "daemon", ...status, ...paired, daemon: running });
  } finally {
    client.close();
  }
}

/**
 * After a stop: the devices still paired (revoked first with --revoke-clients), said on stderr too, since they
 * can come back once remote control is started again. null when the relay could not be asked.
 */
async function pairedAfterStop(
  ctx: RunContext,
  call: DeviceCall,
  opts: Options,
): Promise<RemoteControlClient[] | null> {
  let clients: RemoteControlClient[];
  try {
    clients = await allClients((params) => call("remoteControl/client/list", params));
    if (opts.revokeClients) {
      for (const c of clients) await call("remoteControl/client/revoke", { clientId: c.clientId });
      if (clients.length > 0) await ctx.diag.info(`Revoked ${clients.length} paired device(s).`);
      return [];
    }
  } catch (e) {
    await ctx.diag.warn(
      `Could not list the paired devices: ${
        toLarkitError(e).message
      }. Paired devices can reconnect when remote ` +
        "control is started again; see `larkit remote-control clients`.",
    );
    return null;
  }
  if (clients.length > 0) {
    await ctx.diag.warn(
      `${clients.length} paired device(s) can reconnect when remote control is started again: ` +
        clients.map((c) => c.displayName ? `${c.clientId} (${c.displayName})` : c.clientId).join(", ") +
        ". Revoke with `larkit remote-control clients revoke <id>` or `stop --revoke-clients`.",
    );
  }
  return clients;
}

/** `pairedAfterStop` when no daemon runs: on a remote control in this process, if one can be made at all. */
async function pairedWithoutDaemon(
  ctx: RunContext,
  opts: Options,
): Promise<RemoteControlClient[] | null> {
  try {
    return await withDevices(ctx, opts, (t) => pairedAfterStop(ctx, t.call, opts));
  } catch (e) {
    await ctx.diag.warn(`Could not list the paired devices: ${toLarkitError(e).message}.`);
    return null;
  }
}

type ListClients = (params: { cursor?: string | null; limit: number }) => Promise<unknown>;

/** Every page of `remoteControl/client/list`. */
async function allClients(list: ListClients): Promise<RemoteControlClient[]> {
  const all: RemoteControlClient[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const got: { data: RemoteControlClient[]; nextCursor: string | null } = parseResult(
      "remoteControl/client/list",
      await list({ cursor, limit: 200 }),
    );
    all.push(...got.data);
    cursor = got.nextCursor;
    if (cursor === null) break;
  }
  return all;
}

function parseResult<M extends "remoteControl/client/list" | "remoteControl/pairing/start">(
  method: M,
  value: unknown,
): z.infer<(typeof METHODS)[M]["result"]> {
  const parsed = METHODS[method].result.safeParse(value);
  if (!parsed.success) {
    throw errors.internal(`${method} answered an unexpected shape: ${parsed.error.message}`);
  }
  return parsed.data as z.infer<(typeof METHODS)[M]["result"]>;
}

/** One device method, on the running daemon or on a remote control in this process. */
type DeviceCall = (
  method: "remoteControl/pairing/start" | "remoteControl/client/list" | "remoteControl/client/revoke",
  params: unknown,
) => Promise<unknown>;

/** What pair, clients and stop act on: the running daemon's remote control, else one in this process. */
interface DeviceTarget {
  call: DeviceCall;
}

/**
 * A host for one command when no daemon runs: it acts on the stored enrollment and never opens a relay
 * socket (`followPreference: false`), whatever remote control's saved state.
 */
async function oneOffHost(ctx: RunContext, opts: Options) {
  const { createRemoteControlHost } = await import("../../relay/host.ts");
  return createRemoteControlHost({
    provider: ctx.p,
    baseUrl: await resolveRelayUrl(ctx, opts.relayUrl),
    getAccount: accountFromCredentials(ctx),
    clientName: "",
    followPreference: false,
    log: (line) => void ctx.diag.debug(line),
  });
}

async function withDevices<T>(
  ctx: RunContext,
  opts: Options,
  fn: (target: DeviceTarget) => Promise<T>,
): Promise<T> {
  const daemon = await import("../../relay/daemon.ts");
  const { p } = ctx;
  const reached = await daemon.reachDaemon({
    socketPath: daemon.daemonSocketPath(p.paths),
    version: p.version,
    clock: p.clock,
    logFile: daemon.daemonLogPath(p.paths),
  });
  if (reached) {
    try {
      return await fn({ call: (method, params) => reached.client.call(method, params) });
    } finally {
      reached.client.close();
    }
  }
  const host = await oneOffHost(ctx, opts);
  try {
    const remote = host.remote;
    return await fn({
      // The same params the daemon's methods take, parsed by the same schemas.
      call: async (method, params) => {
        switch (method) {
          case "remoteControl/pairing/start":
            return await remote.pair(METHODS[method].params.parse(params) ?? {});
          case "remoteControl/client/list":
            return await remote.listClients(METHODS[method].params.parse(params) ?? {});
          case "remoteControl/client/revoke": {
            const q = METHODS[method].params.parse(params);
            await remote.revokeClient(q.clientId, q.environmentId);
            return {};
          }
        }
      },
    });
  } finally {
    await host.close();
  }
}

function isoSeconds(s: number): string {
  return new Date(s * 1000).toISOString();
}

async function runPair(ctx: RunContext, opts: Options, out: Emit): Promise<void> {
  const code = await withDevices(ctx, opts, async (t) =>
    parseResult(
      "remoteControl/pairing/start",
      await t.call("remoteControl/pairing/start", opts.manualCode ? { manualCode: true } : {}),
    ));
  await ctx.diag.info(
    `Pairing code: ${code.pairingCode}` + (code.manualPairingCode ? ` (or ${code.manualPairingCode})` : "") +
      ` -- expires at ${isoSeconds(code.expiresAt)}`,
  );
  await out({ data: code, wrote: true });
}

async function runClients(
  ctx: RunContext,
  args: string[],
  opts: Options,
  out: Emit,
): Promise<void> {
  const [sub = "list", id, ...extra] = args;
  if (sub === "list" && id === undefined) {
    const clients = await withDevices(
      ctx,
      opts,
      (t) => allClients((q) => t.call("remoteControl/client/list", q)),
    );
    await out({ data: { clients } });
    return;
  }
  if (sub === "revoke" && id !== undefined && extra.length === 0) {
    await withDevices(ctx, opts, (t) => t.call("remoteControl/client/revoke", { clientId: id }));
    await ctx.diag.info(`Revoked ${id}: the relay refuses it from now on.`);
    await out({ data: { clientId: id, revoked: true }, wrote: true });
    return;
  }
  throw errors.usage(`unknown clients usage: ${["clients", ...args].join(" ")}`, {
    hint: "larkit remote-control clients [list | revoke <client_id>]",
  });
}

async function runHosts(
  ctx: RunContext,
  args: string[],
  opts: Options,
  out: Emit,
): Promise<void> {
  const [sub = "list", id, ...extra] = args;
  const list = sub === "list" && id === undefined;
  const del = sub === "delete" && extra.length === 0 && (id !== undefined) !== (opts.stale === true);
  if (!list && !del) {
    throw errors.usage(`unknown hosts usage: ${["hosts", ...args].join(" ")}`, {
      hint:
        "larkit remote-control hosts [list] [--stale] | hosts delete <environment_id> | hosts delete --stale",
    });
  }
  const host = await oneOffHost(ctx, opts);
  try {
    const all = await host.remote.listHosts();
    // Stale: not connected to the relay, and not this machine (whose enrollment the daemon reuses).
    const stale = all.filter((h) => !h.online && !h.current);
    if (list) {
      await out({ data: { hosts: opts.stale ? stale : all } });
      return;
    }
    const targets = id !== undefined ? [id] : stale.map((h) => h.environmentId);
    for (const env of targets) await host.remote.deleteHost(env);
    await ctx.diag.info(`Deleted ${targets.length} host(s).`);
    await out({ data: { deleted: targets }, wrote: true });
  } finally {
    await host.close();
  }
}

const ACTIONS = ["start", "stop", "status", "pair", "clients", "hosts"] as const;

const remoteControl = defineCommand({
  words: ["remote-control"],
  description: "let your remote devices drive this machine's agent server through the relay",
  flags: {
    jq: jqFlag(),
    daemon: flag.negatable("start: serve in this process (foreground, until Ctrl-C) instead of the daemon"),
    "relay-url": flag.string(`relay base URL (default: $${RELAY_URL_ENV}, else the account's origin)`, {
      placeholder: "url",
    }),
    "wait-ms": flag.integer("start: how long to wait for the relay connection, in ms", {
      default: 15_000,
      min: 0,
      max: 600_000,
    }),
    shutdown: flag.boolean("stop: also end the background daemon"),
    "remote-read-only": flag.boolean("start: refuse every write from remote devices"),
    "remote-forbid-service": flag.string("start: comma-separated services remote devices may not use", {
      placeholder: "services",
    }),
    "remote-own-threads": flag.boolean(
      "start: remote devices see and continue only the threads they started",
    ),
    "revoke-clients": flag.boolean("stop: also revoke every paired device"),
    "manual-code": flag.boolean("pair: also ask for a short numeric code"),
    stale: flag.boolean("hosts: only machines that are offline and not this one"),
  },
  args: [
    { name: "action", description: "what to do", choices: ACTIONS, default: "start" },
    {
      name: "args",
      description: "clients: [list | revoke <client_id>]; hosts: [list | delete <environment_id>]",
      variadic: true,
    },
  ],
  helpAfter: HELP,
  turn: refusedInTurns("starts or stops the remote-control daemon"),
  async action(ctx, { flags, args: [word, ...args] }) {
    const action = word as Action;
    const opts: Options = {
      daemon: flags.daemon,
      relayUrl: flags["relay-url"],
      waitMs: flags["wait-ms"],
      shutdown: flags.shutdown,
      remoteReadOnly: flags["remote-read-only"],
      remoteForbidService: flags["remote-forbid-service"],
      remoteOwnThreads: flags["remote-own-threads"],
      revokeClients: flags["revoke-clients"],
      manualCode: flags["manual-code"],
      stale: flags.stale,
    };
    const out: Emit = (parts) => emitOutput(ctx, ["remote-control"], ["json"], flags, parts);
    if (!opts.daemon && action !== "start") {
      throw errors.usage(`--no-daemon applies to start only, not ${action}`, {
        hint: "a foreground server (`larkit remote-control --no-daemon`) is stopped with Ctrl-C",
      });
    }
    for (const [key, flag, only] of ACTION_FLAGS) {
      if (opts[key] && action !== only) {
        throw errors.usage(`${flag} applies to ${only} only`, {
          hint: `larkit remote-control ${only} ${flag}`,
        });
      }
    }
    if (args.length > 0 && action !== "clients" && action !== "hosts") {
      throw errors.usage(`remote-control ${action} takes no arguments: ${args.join(" ")}`, {
        hint: "larkit remote-control --help",
      });
    }
    if (action === "pair") return await runPair(ctx, opts, out);
    if (action === "clients") return await runClients(ctx, args, opts, out);
    if (action === "hosts") return await runHosts(ctx, args, opts, out);
    if (!opts.daemon) {
      return await runForeground(ctx, await resolveRelayUrl(ctx, opts.relayUrl), remotePolicyOf(opts), out);
    }
    await runThroughDaemon(ctx, action, opts, out);
  },
});

export const remoteControlCommands: CommandModule = { groups: [], commands: [remoteControl] };
