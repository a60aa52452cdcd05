/**
 * The MCP path keeps the OpenAPI path's error contract: a 5xx is `network`, retried (and retryable) only for a
 * read; a write whose answer is lost after it was sent is `outcome_unknown` (exit 8) naming the read that shows
 * whether it happened. The network between larkit and the emulator's `/mcp` is a wrapper that answers or breaks
 * as each test says, only for `tools/call`.
 */
import assert from "node:assert/strict";
import { emulatorEnv, fixtures, startEmulator, userToken } from "./helpers/emulator.ts";
import type { FetchFn } from "../cli/provider.ts";
import { errorOf, loopbackFetch, runCli } from "./helpers/run_cli.ts";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

/** What the network does to a `tools/call` (its `n`-th, from 1): pass it on, or answer/break in its place. */
type Plan = (n: number, forward: () => Promise<Response>) => Promise<Response>;

async function larkitWith(emu: Emu, args: string[], plan: Plan) {
  const uat = (await userToken(emu)).access_token;
  let calls = 0;
  const fetch: FetchFn = async (input, init) => {
    const req = new Request(input, init);
    const body = req.method === "POST" ? await req.clone().json().catch(() => ({})) : {};
    if (body.method !== "tools/call") return loopbackFetch(req);
    return plan(++calls, () => loopbackFetch(req));
  };
  return await runCli([...args, "--as", "user"], {
    env: { ...emulatorEnv(emu), LARKIT_USER_ACCESS_TOKEN: uat },
    fetch,
  });
}

const unavailable = () => Promise.resolve(new Response("upstream unavailable", { status: 503 }));

Deno.test("a 5xx on a write is network, not retried and not retryable; on a read it is retried", async () => {
  const emu = await startEmulator();
  try {
    let sent = 0;
    const write = await larkitWith(emu, ["docs", "+create", "--markdown", "# x"], () => {
      sent++;
      return unavailable();
    });
    assert.equal(write.code, 4, write.stderr);
    const e = errorOf(write);
    assert.deepEqual([e.type, e.subtype, e.retryable, e.code], ["network", "network", false, 503]);
    assert.equal(sent, 1, "a write is not resent after a 5xx");

    const read = await larkitWith(
      emu,
      ["docs", "+fetch", "--doc", fixtures.DOCS.handbook],
      (n, forward) => n === 1 ? unavailable() : forward(),
    );
    assert.equal(read.code, 0, read.stderr);
  } finally {
    await emu.stop();
  }
});

Deno.test("a write whose connection drops after the server did the work is outcome_unknown naming the check", async () => {
  const emu = await startEmulator();
  try {
    const r = await larkitWith(
      emu,
      ["docs", "+update", "--doc", fixtures.DOCS.handbook, "--mode", "append", "--markdown", "More."],
      async (_, forward) => {
        await (await forward()).body?.cancel();
        throw new TypeError("error reading a body from connection: connection reset");
      },
    );
    assert.equal(r.code, 8, r.stderr);
    const e = errorOf(r);
    assert.deepEqual([e.type, e.retryable], ["outcome_unknown", false]);
    assert.equal(
      e.hint,
      `do not re-run blindly (no de-duplication key): check whether it happened first: larkit docs +fetch --doc ${fixtures.DOCS.handbook}`,
    );
  } finally {
    await emu.stop();
  }
});
