/**
 * `larkit remote-control [--no-daemon]`: makes this machine reachable by the user's remote devices through
 * the relay. `--no-daemon` runs an in-process agent server with remote control enabled until interrupted.
 * The account is larkit's user login; the relay base URL comes from `--relay-url`, `LARKIT_RELAY_URL`, or
 * the account's open-platform origin.
 */
import type { Command } from "commander";
import { setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import type { GetAccount } from "../../relay/enroll.ts";
import { createRemoteControlHost } from "../../relay/host.ts";
import type { RemoteControlStatus } from "../../relay/status.ts";

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

function describe(s: RemoteControlStatus): string {
  switch (s.status) {
    case "connected":
      return `This machine is available for remote control as ${s.serverName}.`;
    case "connecting":
      return `Remote control is enabled on ${s.serverName} and still connecting.`;
    case "errored":
      return `Remote control is enabled on ${s.serverName} but the connection is errored: ${
        s.error?.message ?? ""
      }` +
        (s.error?.hint ? ` (${s.error.hint})` : "");
    case "disabled":
      return `Remote control is disabled on ${s.serverName}.`;
  }
}

export function registerRemoteControl(program: Command, ctx: RunContext): void {
  const cmd = program.command("remote-control")
    .description("let your remote devices drive this machine's agent server through the relay")
    .option(
      "--no-daemon",
      "run the agent server in this process (foreground) instead of the background daemon",
    )
    .option("--relay-url <url>", "relay base URL (https on feishu.cn/larksuite.com, or loopback)")
    .action(async (opts: { daemon: boolean; relayUrl?: string }) => {
      if (opts.daemon) {
        throw errors.usage("the background app-server daemon is not part of this build", {
          hint: "run `larkit remote-control --no-daemon` to serve remote control in the foreground",
        });
      }
      const baseUrl = opts.relayUrl ?? ctx.p.env.get("LARKIT_RELAY_URL") ??
        (await ctx.credentials().account()).endpoints.open;
      const host = createRemoteControlHost({
        provider: ctx.p,
        baseUrl,
        getAccount: accountFromCredentials(ctx),
        log: (line) => void ctx.diag.debug(line),
      });
      const say = (line: string) => void ctx.p.stderr.write(line + "\n");
      host.session.status.subscribe((s) => say(describe(s)));
      try {
        say("Starting app-server with remote control enabled...");
        await host.session.enable();
        say("Press Ctrl-C to stop.");
        await new Promise<void>((resolve) => {
          if (ctx.p.signal.aborted) return resolve();
          ctx.p.signal.addEventListener("abort", () => resolve(), { once: true });
        });
      } finally {
        const last = host.session.status.current;
        await host.close();
        await emitText(
          ctx,
          JSON.stringify({ mode: "foreground", status: last.status, serverName: last.serverName }),
        );
      }
    });
  setMeta(cmd, { layer: "builtin" });
}
