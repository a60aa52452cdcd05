import assert from "node:assert/strict";
import { MAIN, REPO, runMain } from "../../tests/helpers/run_main.ts";

Deno.test("sandbox serve prints one ready line {ok, data:{url, app_id, env}} and stops when stdin closes", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "sandbox", "serve", "--port", "0", "--exit-with-stdin"],
    cwd: REPO,
    env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_CONFIG_DIR: await Deno.makeTempDir() },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) break;
    buffered += value;
  }
  // The message is built only on failure: awaiting stderr waits for the child to exit.
  if (!buffered.includes("\n")) assert.fail(`no ready line; stdout: ${buffered}; stderr: ${await stderr}`);
  const ready = JSON.parse(buffered.split("\n")[0]) as {
    ok: boolean;
    data: { url: string; app_id: string; app_secret: string; env: Record<string, string> };
  };
  assert.equal(ready.ok, true);
  assert.match(ready.data.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(ready.data.env.LARKIT_BASE_URL, ready.data.url);
  // Its own client, closed after use: a pooled keep-alive connection would hold the emulator's shutdown open.
  const client = Deno.createHttpClient({});
  const res = await fetch(`${ready.data.url}/open-apis/auth/v3/tenant_access_token/internal`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: ready.data.app_id, app_secret: ready.data.app_secret }),
    client,
  });
  assert.equal((await res.json()).code, 0);
  client.close();
  await child.stdin.close();
  await lines.cancel();
  assert.equal((await child.status).code, 0, await stderr);
});

Deno.test("sandbox run -- <command> runs it against a fresh emulator as the seeded bot", async () => {
  const r = await runMain(["sandbox", "run", "--", "api", "GET", "/open-apis/im/v1/chats"]);
  assert.equal(r.code, 0, r.stderr);
  const env = r.json<{ ok: boolean; identity: string; data: { items: { chat_id: string }[] } }>();
  assert.equal(env.identity, "bot");
  assert.ok(env.data.items.length >= 3);
});

Deno.test("sandbox run with no command is a usage error; a bad --port is a validation error", async () => {
  const none = await runMain(["sandbox", "run"]);
  assert.equal(none.code, 2);
  assert.deepEqual([none.errorJson().error.type, none.errorJson().error.subtype], ["validation", "usage"]);
  const port = await runMain(["sandbox", "serve", "--port", "http"]);
  assert.equal(port.code, 2);
  assert.equal(port.errorJson().error.type, "validation");
});
