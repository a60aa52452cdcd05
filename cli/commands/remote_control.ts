/**
 * `larkit remote-control [start|stop|status] [--no-daemon]`: makes this machine reachable by the user's remote
 * devices through the relay. The work happens in a background app-server daemon reached through its Unix
 * socket (relay/daemon.ts); `--no-daemon` serves in this process until Ctrl-C instead. The account is
 * larkit's user login; app credentials are refused.
 */
import type { Command } from "commander";
import * as z from "zod";
import { refusedInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { errors, larkitError } from "../output/errors.ts";
import { untilAborted } from "../provider.ts";
import { type GetAccount, requireUserAccount } from "../../relay/enroll.ts";
import type { RemoteControlStatus } from "../../relay/status.ts";
import { normalizeRelayBaseUrl } from "../../relay/url.ts";
import type { RemotePolicy } from "../../rpc/policy.ts";
import { type BuiltServer, type ServerLog, turnRunner } from "./app_server.ts";
import { emitEnvelope, envelopeOutput } from "./envelope_output.ts";
import { parseOptions } from "./parse_options.ts";
import { agentEventMethods } from "./event.ts";

/** The environment variable naming the relay base URL when `--relay-url` is not given. */
export const RELAY_URL_ENV = "LARKIT_RELAY_URL";

const HELP = `
The relay base URL is, in order: --relay-url, the ${RELAY_URL_ENV} environment variable, or the open-platform
origin of the account (e.g. https://open.feishu.cn). Only https on feishu.cn, larksuite.com, feishu-staging.cn,
larksuite-staging.com (and subdomains), or http/https on localhost and loopback addresses, are accepted.

start (the default) starts the background daemon when none answers on its socket, enables remote control and
waits up to --wait-ms for the relay connection. The daemon keeps its relay URL and credentials until it exits.
stop disables remote control (the socket to the relay is closed; enrolled devices are not revoked); the daemon
keeps serving local clients on its socket. stop --shutdown also ends the daemon.
status reports the daemon's remote-control status without starting anything.
Each prints one envelope: {mode, status, serverName, installationId, environmentId, daemon: {socket, running}}.
`;

const OptionsSchema = z.object({
  daemon: z.boolean(),
  relayUrl: z.optional(z.string()),
  waitMs: z.coerce.number().check(z.int(), z.minimum(0), z.maximum(600_000)),
  shutdown: z.optional(z.boolean()),
});

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
      runner: turnRunner(ctx),
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

async function runForeground(ctx: RunContext, relayUrl: string, cmd: Command): Promise<void> {
  const { createRemoteControlHost } = await import("../../relay/host.ts");
  const { statusView } = await import("../../relay/control_methods.ts");
  const host = createRemoteControlHost({
    provider: ctx.p,
    baseUrl: relayUrl,
    getAccount: accountFromCredentials(ctx),
    runner: turnRunner(ctx),
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
  await emitEnvelope(ctx, cmd, {
    data: { mode: "foreground", ...statusView(host.remote.status.current) },
    wrote: true,
  });
}

async function runThroughDaemon(
  ctx: RunContext,
  action: "start" | "stop" | "status",
  opts: z.infer<typeof OptionsSchema>,
  cmd: Command,
): Promise<void> {
  // start and stop change the relay connection before their result is shown.
  const emit = (data: unknown) => emitEnvelope(ctx, cmd, { data, wrote: action !== "status" });
  const daemon = await import("../../relay/daemon.ts");
  const { p } = ctx;
  const socket = daemon.daemonSocketPath(p.paths);
  const logFile = daemon.daemonLogPath(p.paths);
  let spawn: string[] | undefined;
  if (action === "start") {
    const relayUrl = await resolveRelayUrl(ctx, opts.relayUrl);
    // Refused before a daemon is started for nothing; the daemon checks again with its own credentials.
    requireUserAccount(await accountFromCredentials(ctx)());
    spawn = daemon.daemonArgv(p.system.selfCommand, socket, relayUrl, ctx.globals.profile, logFile);
  }
  const reached = await daemon.reachDaemon({
    socketPath: socket,
    version: p.version,
    clock: p.clock,
    spawn,
    logFile,
  });
  if (!reached) {
    await emit({
      mode: "daemon",
      status: "disabled",
      serverName: p.system.hostname,
      installationId: null,
      environmentId: null,
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
    if (action === "stop" && opts.shutdown) {
      await daemon.shutdownDaemon(client, socket, p.clock);
      await emit({ mode: "daemon", ...status, daemon: { socket, running: false } });
      return;
    }
    await emit({ mode: "daemon", ...status, daemon: running });
  } finally {
    client.close();
  }
}

export function registerRemoteControl(program: Command, ctx: RunContext): void {
  const remote = program.command("remote-control");
  // Made by the command, not imported: `app-server` loads this module for `remoteControlServer` without
  // commander (start-up), and a value import of commander would load it all the same.
  const action = remote.createArgument("[action]", "what to do").choices(["start", "stop", "status"]);
  const cmd = envelopeOutput(remote)
    .description("let your remote devices drive this machine's agent server through the relay")
    .addArgument(action.default("start"))
    .option("--no-daemon", "start: serve in this process (foreground, until Ctrl-C) instead of the daemon")
    .option("--relay-url <url>", `relay base URL (default: $${RELAY_URL_ENV}, else the account's origin)`)
    .option("--wait-ms <ms>", "start: how long to wait for the relay connection", "15000")
    .option("--shutdown", "stop: also end the background daemon")
    .addHelpText("after", HELP)
    .action(async (action: "start" | "stop" | "status", raw: unknown) => {
      const opts = parseOptions(OptionsSchema, raw, "remote-control");
      if (!opts.daemon && action !== "start") {
        throw errors.usage(`--no-daemon applies to start only, not ${action}`, {
          hint: "a foreground server (`larkit remote-control --no-daemon`) is stopped with Ctrl-C",
        });
      }
      if (opts.shutdown && action !== "stop") {
        throw errors.usage("--shutdown applies to stop only", {
          hint: "larkit remote-control stop --shutdown",
        });
      }
      if (!opts.daemon) return await runForeground(ctx, await resolveRelayUrl(ctx, opts.relayUrl), cmd);
      await runThroughDaemon(ctx, action, opts, cmd);
    });
  setMeta(cmd, { layer: "builtin", turn: refusedInTurns("starts or stops the remote-control daemon") });
}
