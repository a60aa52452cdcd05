/**
 * Nothing on the network on the hot path: with a configured suite and the remote metadata enabled, ordinary
 * commands (a usage error, a dry run, a generated command's help) send no request and write nothing after
 * their result. The overlay is fetched only by `larkit registry refresh` and by `doctor` (when due).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { FetchFn } from "../cli/provider.ts";
import { withIOFrom } from "../cli/provider.ts";
import { runCli as runIn } from "../cli/run.ts";
import { cliProvider, type RunOptions } from "./helpers/run_cli.ts";

const widgets = {
  name: "calendar",
  servicePath: "/open-apis/calendar/v9",
  resources: {
    widgets: { methods: { list: { path: "widgets", httpMethod: "GET", accessTokens: ["user"] } } },
  },
};

Deno.test("ordinary commands never fetch the overlay; registry refresh and doctor do", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-hot-" });
  const configDir = join(dir, "config");
  const asked: string[] = [];
  let online = false;
  // No network, unless a test step turns it on: then the overlay endpoint answers.
  const net: FetchFn = (input) => {
    const url = new URL(input instanceof Request ? input.url : input);
    asked.push(url.pathname);
    if (online && url.pathname === "/api/tools/open/api_definition") {
      return Promise.resolve(
        Response.json({ msg: "succeeded", data: { version: "v9", services: [widgets] } }),
      );
    }
    return Promise.reject(new TypeError(`error sending request for url (${url.href}): network unreachable`));
  };
  const run = async (args: string[], opts: RunOptions = {}) => {
    // Retries of the failing network need no real waiting.
    const sleep = () => Promise.resolve();
    const base = cliProvider({ sleep, ...opts, configDir, env: { LARKIT_REMOTE_META: "", ...opts.env } });
    const code = await runIn(args, withIOFrom({ ...base, fetch: net }));
    return { code, stdout: base.out.text(), stderr: base.err.text() };
  };
  try {
    const init = await run(["config", "init", "--app-id", "cli_hot", "--app-secret-stdin"], { stdin: "s\n" });
    assert.equal(init.code, 0, init.stderr);

    for (
      const args of [
        ["calendar", "events", "nosuch"],
        ["calendar", "events", "list", "--help"],
        ["api", "GET", "/open-apis/calendar/v4/calendars", "--as", "bot", "--dry-run"],
        ["schema", "calendar.events.list"],
        ["auth", "status"],
      ]
    ) {
      const r = await run(args);
      assert.doesNotMatch(r.stderr, /warning:/, `${args.join(" ")}: ${r.stderr}`);
      if (r.code !== 0) JSON.parse(r.stderr); // the envelope is the whole of stderr
    }
    assert.equal(asked.length, 0, `no request on the hot path: ${asked.join(", ")}`);

    // Explicit: offline it is a clear network error, the warning before the envelope.
    const failed = await run(["registry", "refresh"]);
    assert.equal(failed.code, 4, failed.stderr);
    assert.match(failed.stderr, /^warning: registry overlay not updated/);
    assert.equal(JSON.parse(failed.stderr.slice(failed.stderr.indexOf("{"))).error.type, "network");

    online = true;
    const refreshed = await run(["registry", "refresh"]);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal(JSON.parse(refreshed.stdout).data.result, "updated");
    const listed = await run(["calendar", "widgets", "list", "--help"]);
    assert.equal(listed.code, 0, listed.stderr);

    // Doctor refreshes only once the TTL ran out.
    asked.length = 0;
    await run(["doctor"]);
    assert.ok(!asked.includes("/api/tools/open/api_definition"), "not due yet");
    await run(["doctor"], { env: { LARKIT_META_TTL: "0.001" } });
    assert.ok(asked.includes("/api/tools/open/api_definition"), "due: doctor refreshes");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
