/**
 * `larkit api` cannot leave `/open-apis/`: a path is checked as the suite will decode it, before anything is
 * sent (dry run included), and a full URL's query string is never silently dropped.
 */
import assert from "node:assert/strict";
import { checkApiPath } from "../cli/http/url.ts";
import { LarkitError } from "../cli/output/errors.ts";
import { emulatorEnv, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

const ESCAPES = [
  "/open-apis/%2e%2e/etc/passwd",
  "/open-apis/%2E%2E/%2e%2E/emulator/verify",
  "/open-apis/../etc/passwd",
  "/open-apis/calendar/./../../x",
  "/open-apis/calendar%2f..%2f..%2fx",
  "/open-apis/calendar%5c..%5cx",
  "/open-apis/calendar/v4/calendars%3fx=1",
  "/open-apis/calendar/v4/calendars%23frag",
  "/open-apis/calendar/v4/calendars?x=1",
  "/open-apis/%252e%252e/x",
  "/open-apis/%zz",
  "/open-apis/a%00b",
];

Deno.test("checkApiPath refuses every way out of /open-apis/ as a validation error", () => {
  for (const path of ESCAPES) {
    assert.throws(
      () => checkApiPath(path),
      (e) => e instanceof LarkitError && e.type === "validation",
      path,
    );
  }
  assert.equal(
    checkApiPath("/open-apis/calendar/v4/calendars/a%40b"),
    "/open-apis/calendar/v4/calendars/a%40b",
  );
});

Deno.test("api with an escaping path is exit 2 validation, in a dry run and for real, and nothing is sent", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    for (
      const path of ["/open-apis/%2e%2e/etc/passwd", "/open-apis/..%2femulator/verify", "/open-apis/../x"]
    ) {
      for (const dry of [true, false]) {
        emu.clearRequests();
        const r = await runCli(["api", "GET", path, "--as", "bot", ...(dry ? ["--dry-run"] : [])], { env });
        assert.equal(r.code, 2, `${path} ${dry}: ${r.stderr}`);
        assert.equal(r.stdout, "");
        assert.equal(r.errorJson().error.type, "validation");
        assert.deepEqual(emu.requests().filter((q) => !q.path.startsWith("/open-apis/auth/")), [], path);
      }
    }
  });
});

Deno.test("a full suite URL keeps to its path as written, and one with a query string is refused, not trimmed", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    const plain = await runCli(["api", "GET", `${emu.url}/open-apis/calendar/v4/calendars`, "--dry-run"], {
      env,
    });
    assert.equal(plain.code, 0, plain.stderr);
    const doc = plain.json<{ data: { api: { url: string }[] } }>();
    assert.equal(doc.data.api[0].url, `${emu.url}/open-apis/calendar/v4/calendars`);

    const query = await runCli(["api", "GET", `${emu.url}/open-apis/calendar/v4/calendars?page_size=5`], {
      env,
    });
    assert.equal(query.code, 2, query.stderr);
    const err = query.errorJson().error;
    assert.equal(err.type, "validation");
    assert.match(err.hint ?? "", /--params '\{"page_size":"5"\}'/);

    const normalised = await runCli(["api", "GET", `${emu.url}/open-apis/x/%2e%2e/calendar/v4/calendars`], {
      env,
    });
    assert.equal(normalised.code, 2, "a URL is not normalised by a URL parser before it is checked");
  });
});
