/**
 * `larkit relay dev` is as strict as the production relay about devices: a client id that was never paired is
 * refused (403) unless the relay was started with the explicit by-hand opt-in `--allow-unpaired`, which says
 * on stderr what it allows. In-process: the relay runs until the run's signal is aborted (Ctrl-C).
 */
import assert from "node:assert/strict";
// @ts-types="@types/ws"
import WebSocket from "ws";
import { errors } from "../cli/output/errors.ts";
import { runCli } from "./helpers/run_cli.ts";
import { until } from "./helpers/until.ts";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/** A remote client's handshake without a token: 101 when let in, else the refusal's status. */
function unpairedHandshake(port: number): Promise<number> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/dev/client?client_id=by-hand`);
  return new Promise((resolve) => {
    ws.on("open", () => {
      ws.close();
      resolve(101);
    });
    ws.on("unexpected-response", (_req, res) => {
      res.resume();
      ws.terminate();
      resolve(res.statusCode ?? 0);
    });
    ws.on("error", () => {});
  });
}

/** Runs `relay dev` with `flags` until `fn` is done, then stops it as Ctrl-C would; its output. */
async function withRelayDev(flags: string[], fn: (port: number) => Promise<void>) {
  const port = freePort();
  const stop = new AbortController();
  const run = runCli(["relay", "dev", "--listen", `127.0.0.1:${port}`, ...flags], { signal: stop.signal });
  try {
    await until("the relay listening", () =>
      fetch(`http://127.0.0.1:${port}/`).then(
        (r) => r.body?.cancel().then(() => true) ?? true,
        () => false,
      ));
    await fn(port);
  } finally {
    stop.abort(errors.interrupted("SIGINT"));
  }
  return await run;
}

Deno.test("relay dev refuses a client id that was never paired; --allow-unpaired lets one in and warns", async () => {
  const strict = await withRelayDev([], async (port) => {
    assert.equal(await unpairedHandshake(port), 403);
  });
  assert.doesNotMatch(strict.stderr, /allow-unpaired/);
  const lax = await withRelayDev(["--allow-unpaired"], async (port) => {
    assert.equal(await unpairedHandshake(port), 101);
  });
  assert.match(
    lax.stderr,
    /^warning: --allow-unpaired: any client id that was never paired may connect without a token; the production relay refuses it/m,
  );
  assert.match(lax.stdout, /"pair_url":"http:\/\/127\.0\.0\.1:\d+\/dev\/pair"/);
});

Deno.test("relay client as a device that was never paired is an auth error saying how to pair, not a network error", async () => {
  await withRelayDev([], async (port) => {
    const r = await runCli([
      "relay",
      "client",
      "--relay",
      `http://127.0.0.1:${port}/`,
      "--client-id",
      "by-hand",
    ], {
      stdin: "",
    });
    assert.equal(r.code, 3, r.stderr);
    const error = JSON.parse(r.stderr).error;
    assert.equal(error.type, "authentication");
    assert.equal(error.retryable, false);
    assert.match(error.message, /refused client by-hand: .*HTTP 403 .*not paired/);
    assert.match(error.hint, /larkit remote-control pair.*--pairing-code/);
  });
});
