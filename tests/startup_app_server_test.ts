/**
 * `app-server`'s line is read by the resolver (`cli/resolve/parse.ts`) against its declaration, the one reading
 * every command goes through: the words land on its node, then its flags are parsed.
 */
import assert from "node:assert/strict";
import { createRunContext } from "../cli/context.ts";
import { LarkitError } from "../cli/output/errors.ts";
import type { ParsedLine } from "../cli/resolve/node.ts";
import { landOn, parseLine } from "../cli/resolve/parse.ts";
import { rootNode } from "../cli/resolve/root.ts";
import { testProvider } from "../cli/test_provider.ts";

async function parseCommand(args: string[]): Promise<ParsedLine> {
  const ctx = createRunContext(testProvider({}), { debug: false, color: false, offline: true });
  const { node, rest, help } = await landOn(rootNode(ctx), ["app-server", ...args]);
  assert.equal(node.name, "app-server");
  assert.equal(help, false);
  return parseLine(node, rest);
}

Deno.test("the app-server line's flags: values, =, the last of a repeated one, booleans", async () => {
  const cases: [string[], Record<string, unknown>][] = [
    [[], {}],
    [["--listen=unix:/tmp/x.sock", "--remote-read-only"], {
      listen: "unix:/tmp/x.sock",
      "remote-read-only": true,
    }],
    [
      ["--listen", "ws://127.0.0.1:0", "--ws-allow-origin", "http://a,http://b", "--ws-insecure-no-token"],
      { listen: "ws://127.0.0.1:0", "ws-allow-origin": "http://a,http://b", "ws-insecure-no-token": true },
    ],
    [
      ["--remote-control", "--relay-url", "https://relay.example", "--log-file", "s.log"],
      { "remote-control": true, "relay-url": "https://relay.example", "log-file": "s.log" },
    ],
    [["--remote-forbid-service", "mail,im", "--listen", "off", "--listen", "stdio"], {
      "remote-forbid-service": "mail,im",
      listen: "stdio",
    }],
  ];
  for (const [args, raw] of cases) {
    assert.deepEqual(await parseCommand(args), { values: raw, args: [] }, JSON.stringify(args));
  }
});

Deno.test("an app-server line it cannot take is a usage error, not a server", async () => {
  for (
    const [args, message] of [
      [["--nosuch"], "unknown option '--nosuch'"],
      [["--listen"], "option '--listen <transport>' argument missing"],
      [["stdio"], "too many arguments for 'app-server'. Expected 0 arguments but got 1: stdio."],
    ] as const
  ) {
    await assert.rejects(
      () => parseCommand([...args]),
      (e) => e instanceof LarkitError && e.body.subtype === "usage" && e.message === message,
    );
  }
});
