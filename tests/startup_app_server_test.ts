/**
 * `app-server` starts without commander (`runAppServerLine` in `cli/fast/method.ts`, issue 17): the options
 * object the lean resolver hands `startAppServer` must be the one commander would hand it, for the flags the
 * command declares (`APP_SERVER_FLAGS`, read by both).
 */
import assert from "node:assert/strict";
import { Command } from "commander";
import { APP_SERVER_FLAGS, registerAppServer } from "../cli/commands/app_server.ts";
import type { RunContext } from "../cli/context.ts";
import { allDeclared, parseFlags } from "../cli/fast/method.ts";

async function commanderOpts(args: string[]): Promise<Record<string, unknown>> {
  const program = new Command().exitOverride();
  registerAppServer(program, {} as RunContext);
  let got: Record<string, unknown> = {};
  program.commands[0].action((opts: Record<string, unknown>) => {
    got = { ...opts };
  });
  await program.parseAsync(["app-server", ...args], { from: "user" });
  return got;
}

Deno.test("the lean app-server line gets commander's options object", async () => {
  const flags = allDeclared(APP_SERVER_FLAGS);
  assert.ok(flags, "every app-server flag is one the lean parser understands");
  for (
    const args of [
      [],
      ["--listen", "stdio"],
      ["--listen=unix:/tmp/x.sock", "--remote-read-only"],
      ["--listen", "ws://127.0.0.1:0", "--ws-allow-origin", "http://a,http://b", "--ws-insecure-no-token"],
      ["--remote-control", "--relay-url", "https://relay.example", "--log-file", "s.log"],
      ["--remote-forbid-service", "mail,im", "--listen", "off", "--listen", "stdio"],
    ]
  ) {
    assert.deepEqual(parseFlags(flags, args)?.opts, await commanderOpts(args), JSON.stringify(args));
  }
  // What it does not understand is left to the tree (commander's own message and exit code).
  assert.equal(parseFlags(flags, ["--nosuch"]), undefined);
  assert.equal(parseFlags(flags, ["--listen"]), undefined);
});
