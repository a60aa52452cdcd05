/**
 * `larkit app-server --listen stdio|unix:PATH|ws://127.0.0.1:PORT|off`: the local agent server. Clients speak
 * JSON-RPC 2.0 (see docs/rpc.md); each turn runs one larkit command line in this process with this machine's
 * credentials. stdio serves until stdin ends; the listeners serve until Ctrl-C.
 */
import { join, resolve } from "node:path";
import { flag } from "../../shortcuts/declare.ts";
import { refusedInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { errors } from "../output/errors.ts";
import { untilAborted } from "../provider.ts";
import type { LarkitAppServer } from "../../rpc/server.ts";
import { DEFAULT_POLICY, type RemotePolicy } from "../../rpc/policy.ts";
import { isLoopback } from "../../rpc/transports/websocket.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { remoteControlServer } from "./remote_control.ts";

export type Listen =
  | { kind: "stdio" }
  | { kind: "unix"; path: string }
  | { kind: "ws"; hostname: string; port: number }
  | { kind: "off" };

export function parseListen(value: string, cwd: string): Listen {
  if (value === "stdio" || value === "off") return { kind: value };
  if (value.startsWith("unix:") && value.length > "unix:".length) {
    return { kind: "unix", path: resolve(cwd, value.slice("unix:".length)) };
  }
  if (value.startsWith("ws://")) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw errors.validation(`--listen ${value} is not a valid ws:// address`, {
        hint: "e.g. ws://127.0.0.1:8765",
      });
    }
    if (!isLoopback(url.hostname)) {
      throw errors.validation(`--listen ${value}: the WebSocket listener binds loopback only`, {
        hint: "use ws://127.0.0.1:PORT; remote clients connect through remote control",
      });
    }
    return { kind: "ws", hostname: url.hostname, port: url.port === "" ? 0 : Number(url.port) };
  }
  throw errors.validation(`--listen ${value} is not a transport`, {
    hint: "use stdio, unix:/path/to.sock, ws://127.0.0.1:PORT or off",
  });
}

export type ServerLog = (event: string, fields: Record<string, unknown>) => void;

/** A server someone else assembled (the remote-control daemon's host), closed by `close`. */
export interface BuiltServer {
  server: LarkitAppServer;
  close(): Promise<void>;
}

export interface AppServerRun {
  listen: Listen;
  policy: RemotePolicy;
  /** Builds the server instead of a plain one: the remote-control daemon serves its relay host's server. */
  build?: (log: ServerLog) => BuiltServer;
  /** Stops serving when aborted, besides the run's own signal (`daemon/shutdown`). */
  until?: AbortSignal;
  /** Also append every server event, with a timestamp, to this file (the detached daemon's only voice). */
  logFile?: string;
  /** The WebSocket listener's handshake rules: allowed `Origin`s, and whether the per-start token is required. */
  ws?: { allowedOrigins: string[]; requireToken: boolean };
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Runs the server on one transport until its end (stdin closed, or the run's signal aborted). */
export async function runAppServer(ctx: RunContext, run: AppServerRun): Promise<void> {
  const { p, diag } = ctx;
  const log: ServerLog = (event, fields) => {
    const line = `app-server: ${event} ${JSON.stringify(fields)}`;
    if (run.logFile) {
      void p.files.appendTextFile(run.logFile, `${new Date(p.clock.now()).toISOString()} ${line}\n`).catch(
        () => {},
      );
    }
    void (event.startsWith("connection_") || event === "stale_socket_removed"
      ? diag.info(line)
      : diag.debug(line));
  };
  const built: BuiltServer = run.build?.(log) ?? await (async () => {
    // Loaded here and per transport below, not at the top: every other larkit command would otherwise pay for
    // the server and SQLite, and only what this run's transport needs loads before `initialize` is answered.
    const { createAppServer } = await import("../../rpc/server.ts");
    const server = createAppServer({ provider: p, policy: run.policy, log, runner: ctx.hooks.run });
    return { server, close: () => server.close() };
  })();
  const { server } = built;
  const stop = run.until ? AbortSignal.any([p.signal, run.until]) : p.signal;
  const stopped = untilAborted(stop);
  try {
    switch (run.listen.kind) {
      case "stdio": {
        const { serveStdio } = await import("../../rpc/transports/stdio.ts");
        await Promise.race([serveStdio(server, { input: p.stdin, output: p.stdout }), stopped]);
        break;
      }
      case "unix": {
        const { listenUnix } = await import("../../rpc/transports/unix.ts");
        const listener = await listenUnix(server, run.listen.path, { log });
        await diag.info(`app-server: listening on unix:${listener.path}`);
        await stopped;
        await listener.close();
        break;
      }
      case "ws": {
        const rules = run.ws ?? { allowedOrigins: [], requireToken: true };
        const token = rules.requireToken ? hex(p.random.bytes(32)) : undefined;
        const { listenWebSocket } = await import("../../rpc/transports/websocket.ts");
        const listener = listenWebSocket(server, {
          ...run.listen,
          clock: p.clock,
          allowedOrigins: rules.allowedOrigins,
          token,
          onRefused: (reason) => log("ws_handshake_refused", { reason }),
        });
        const address = `ws://${run.listen.hostname}:${listener.port}`;
        const tokenFile = join(p.paths.stateDir, `app-server-ws-${listener.port}.token`);
        try {
          await diag.info(`app-server: listening on ${address} (experimental)`);
          if (token) {
            await p.files.writeFileAtomic(tokenFile, `${token}\n`, { mode: 0o600 });
            await diag.info(
              `app-server: token ${token} (also in ${tokenFile}); send it as "Authorization: Bearer <token>" ` +
                `or connect to ${address}/?token=<token>`,
            );
          } else {
            await diag.warn(`app-server: ${WS_NO_TOKEN}: any local process or allowed page can connect`);
          }
          await stopped;
        } finally {
          await listener.close();
          if (token) await p.files.remove(tokenFile).catch(() => {});
        }
        break;
      }
      case "off":
        await diag.info(
          "app-server: no local transport; serving in-process and remote-control connections only",
        );
        await stopped;
        break;
    }
  } finally {
    await built.close();
  }
}

export interface AppServerFlags {
  listen: string;
  remoteReadOnly?: boolean;
  remoteOwnThreads?: boolean;
  remoteForbidService?: string;
  remoteControl?: boolean;
  relayUrl?: string;
  logFile?: string;
  wsAllowOrigin?: string;
  wsInsecureNoToken?: boolean;
}

const WS_NO_TOKEN = "--ws-insecure-no-token";

/** The server's policy for remote origins from the `--remote-*` flags (`app-server`, `remote-control start`). */
export function remotePolicyOf(
  opts: Pick<AppServerFlags, "remoteReadOnly" | "remoteForbidService" | "remoteOwnThreads">,
): RemotePolicy {
  return {
    ...DEFAULT_POLICY,
    forbidWrites: opts.remoteReadOnly === true,
    forbiddenServices: (opts.remoteForbidService ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    ownThreads: opts.remoteOwnThreads === true,
  };
}

/** The `app-server` flags that give a server `policy` (for the daemon `remote-control start` spawns). */
export function remotePolicyArgs(policy: RemotePolicy): string[] {
  return [
    ...(policy.forbidWrites ? ["--remote-read-only"] : []),
    ...(policy.forbiddenServices.length > 0
      ? ["--remote-forbid-service", policy.forbiddenServices.join(",")]
      : []),
    ...(policy.ownThreads ? ["--remote-own-threads"] : []),
  ];
}

/** `larkit app-server [flags]`, with its parsed flags. */
export async function startAppServer(ctx: RunContext, opts: AppServerFlags): Promise<void> {
  const policy = remotePolicyOf(opts);
  const listen = parseListen(opts.listen, ctx.p.cwd);
  const logFile = opts.logFile === undefined ? undefined : resolve(ctx.p.cwd, opts.logFile);
  // Every app server serves remoteControl/*; --remote-control is the daemon: enabled at start.
  const shutdown = new AbortController();
  const build = await remoteControlServer(ctx, {
    relayUrl: opts.relayUrl,
    daemon: opts.remoteControl === true,
    policy,
    shutdown: () => shutdown.abort(),
  });
  const ws = {
    allowedOrigins: (opts.wsAllowOrigin ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    requireToken: opts.wsInsecureNoToken !== true,
  };
  await runAppServer(ctx, { listen, policy, build, until: shutdown.signal, logFile, ws });
}

/**
 * `larkit app-server [flags]`: its module alone loads with the resolver (start-up: spawn -> `initialize` answer,
 * issue 17).
 */
export const appServer = defineCommand({
  words: ["app-server"],
  description: "run the local agent server (JSON-RPC 2.0): threads and turns that run larkit commands",
  flags: {
    listen: flag.defaulted("stdio, unix:PATH, ws://127.0.0.1:PORT (experimental) or off", "stdio", {
      placeholder: "transport",
    }),
    "remote-read-only": flag.boolean("refuse every write from remote-control connections"),
    "remote-forbid-service": flag.string("comma-separated services remote-control connections may not use", {
      placeholder: "services",
    }),
    "remote-own-threads": flag.boolean(
      "remote devices see and continue only the threads they started (implied by the two --remote-* above)",
    ),
    "remote-control": flag.boolean(
      "also serve remoteControl/* and daemon/shutdown with a relay session (the `larkit remote-control` daemon)",
    ),
    "relay-url": flag.string("relay base URL for --remote-control (see `larkit remote-control --help`)", {
      placeholder: "url",
    }),
    "log-file": flag.string("also append every server event, timestamped, to this file", {
      placeholder: "path",
    }),
    "ws-allow-origin": flag.string(
      "comma-separated browser origins (scheme://host[:port]) the WebSocket listener accepts; others get 403",
      { placeholder: "origins" },
    ),
    // WS_NO_TOKEN, spelt out so the flag's value is typed.
    "ws-insecure-no-token": flag.boolean(
      "do not require the WebSocket listener's per-start token (any local process may connect)",
    ),
  },
  turn: refusedInTurns("starts a server and listeners on this machine"),
  action: (ctx, { flags }) =>
    startAppServer(ctx, {
      listen: flags.listen,
      remoteReadOnly: flags["remote-read-only"],
      remoteForbidService: flags["remote-forbid-service"],
      remoteOwnThreads: flags["remote-own-threads"],
      remoteControl: flags["remote-control"],
      relayUrl: flags["relay-url"],
      logFile: flags["log-file"],
      wsAllowOrigin: flags["ws-allow-origin"],
      wsInsecureNoToken: flags["ws-insecure-no-token"],
    }),
});

export const appServerCommands: CommandModule = { groups: [], commands: [appServer] };
