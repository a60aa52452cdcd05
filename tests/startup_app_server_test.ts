/**
 * `app-server` starts without the tree (`runAppServerLine` in `cli/fast/method.ts`, issue 17), through its
 * declaration and the resolver's parse, the one every declared command goes through.
 */
import assert from "node:assert/strict";
import { appServer } from "../cli/commands/app_server.ts";
import { LarkitError } from "../cli/output/errors.ts";
import { parseCommand } from "../cli/resolve/parse.ts";

Deno.test("the app-server line's flags: values, =, the last of a repeated one, booleans", () => {
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
    assert.deepEqual(parseCommand(appServer, args).raw, raw, JSON.stringify(args));
  }
});

Deno.test("an app-server line it cannot take is a usage error, not a server", () => {
  for (
    const [args, message] of [
      [["--nosuch"], "unknown option '--nosuch'"],
      [["--listen"], "option '--listen <transport>' argument missing"],
      [["stdio"], "too many arguments for 'app-server'. Expected 0 arguments but got 1: stdio."],
    ] as const
  ) {
    assert.throws(
      () => parseCommand(appServer, [...args]),
      (e) => e instanceof LarkitError && e.body.subtype === "usage" && e.message === message,
    );
  }
});
