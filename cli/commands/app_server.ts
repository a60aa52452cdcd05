/**
 * `larkit app-server --listen stdio|unix:PATH|ws://127.0.0.1:PORT|off`: the local agent server. Clients speak
 * JSON-RPC 2.0 (see docs/rpc.md); each turn runs one larkit command line in this process with this machine's
 * credentials. stdio serves until stdin ends; the listeners serve until Ctrl-C.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import { setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { errors } from "../output/errors.ts";
import type { MethodHandler } from "../../rpc/server.ts";
import { DEFAULT_POLICY, type RemotePolicy } from "../../rpc/policy.ts";
import { isLoopback } from "../../rpc/transports/websocket.ts";

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

export interface AppServerRun {
  listen: Listen;
  policy: RemotePolicy;
  /** Extra methods (remote control) from the command that starts the server with the relay. */
  methods?: Record<string, MethodHandler>;
}

/** Runs the server on one transport until its end (stdin closed, or the run's signal aborted). */
export async function runAppServer(ctx: RunContext, run: AppServerRun): Promise<void> {
  const { p, diag } = ctx;
  // Loaded here, not at the top: every other larkit command would otherwise pay for the server and SQLite.
  const [{ createAppServer }, { serveStdio }, { listenUnix }, { listenWebSocket }] = await Promise.all([
    import("../../rpc/server.ts"),
    import("../../rpc/transports/stdio.ts"),
    import("../../rpc/transports/unix.ts"),
    import("../../rpc/transports/websocket.ts"),
  ]);
  const log = (event: string, fields: Record<string, unknown>) => {
    const line = `app-server: ${event} ${JSON.stringify(fields)}`;
    void (event.startsWith("connection_") || event === "stale_socket_removed"
      ? diag.info(line)
      : diag.debug(line));
  };
  const server = createAppServer({ provider: p, policy: run.policy, methods: run.methods, log });
  const stopped = new Promise<void>((done) => {
    if (p.signal.aborted) done();
    else p.signal.addEventListener("abort", () => done(), { once: true });
  });
  try {
    switch (run.listen.kind) {
      case "stdio":
        await Promise.race([serveStdio(server, { input: p.stdin, output: p.stdout }), stopped]);
        break;
      case "unix": {
        const listener = await listenUnix(server, run.listen.path, { log });
        await diag.info(`app-server: listening on unix:${listener.path}`);
        await stopped;
        await listener.close();
        break;
      }
      case "ws": {
        const listener = listenWebSocket(server, { ...run.listen, clock: p.clock });
        await diag.info(
          `app-server: listening on ws://${run.listen.hostname}:${listener.port} (experimental)`,
        );
        await stopped;
        await listener.close();
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
    await server.close();
  }
}

export function registerAppServer(program: Command, ctx: RunContext): void {
  const cmd = program.command("app-server")
    .description("run the local agent server (JSON-RPC 2.0): threads and turns that run larkit commands")
    .option("--listen <transport>", "stdio, unix:PATH, ws://127.0.0.1:PORT (experimental) or off", "stdio")
    .option("--remote-read-only", "refuse every write from remote-control connections")
    .option(
      "--remote-forbid-service <services>",
      "comma-separated services remote-control connections may not use",
    )
    .action(async (opts: { listen: string; remoteReadOnly?: boolean; remoteForbidService?: string }) => {
      const policy: RemotePolicy = {
        ...DEFAULT_POLICY,
        forbidWrites: opts.remoteReadOnly === true,
        forbiddenServices: (opts.remoteForbidService ?? "").split(",").map((s) => s.trim()).filter(Boolean),
      };
      await runAppServer(ctx, { listen: parseListen(opts.listen, ctx.p.cwd), policy });
    });
  setMeta(cmd, { layer: "builtin" });
}
