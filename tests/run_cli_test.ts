/**
 * The in-process runner stands in for `main.ts` only if both give the same code, stdout and stderr for the
 * same argv; this file pins that for a success, a usage error and help, and pins what the runner shields
 * (the developer's env, the network beyond loopback).
 */
import assert from "node:assert/strict";
import { runMain } from "./helpers/run_main.ts";
import { cliProvider, loopbackFetch, runCli } from "./helpers/run_cli.ts";

Deno.test("runCli and runMain agree on code, stdout and stderr", async () => {
  for (const argv of [["--version"], ["calendar", "+nope"], ["auth", "--help"], ["auth", "status"]]) {
    const [inProcess, spawned] = await Promise.all([runCli(argv), runMain(argv)]);
    assert.equal(inProcess.code, spawned.code, argv.join(" "));
    assert.equal(inProcess.stdout, spawned.stdout, argv.join(" "));
    assert.equal(inProcess.stderr, spawned.stderr, argv.join(" "));
  }
});

Deno.test("runCli sees only the env it is given", async () => {
  // This process has a PATH and a HOME; the run must not (parallel test files share this process's env, so
  // nothing here changes it).
  assert.ok(Deno.env.get("PATH") && Deno.env.get("HOME"));
  const p = cliProvider({ configDir: await Deno.makeTempDir() });
  assert.equal(p.env.get("PATH"), undefined);
  assert.equal(p.env.get("HOME"), undefined);
  const r = await runCli(["auth", "status"]);
  assert.equal(r.code, 3);
  assert.equal(r.errorJson().error.message, "not configured");
  const given = await runCli(["auth", "status"], { env: { LARKIT_APP_ID: "cli_given" } });
  assert.match(given.errorJson().error.message, /LARKIT_APP_ID is set but neither LARKIT_APP_SECRET/);
});

Deno.test("runCli's network stops at loopback", async () => {
  await assert.rejects(loopbackFetch("https://open.feishu.cn/open-apis/"), /loopback only/);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("here"));
  try {
    const res = await loopbackFetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await res.text(), "here");
  } finally {
    await server.shutdown();
  }
});
