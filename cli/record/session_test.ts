import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../output/errors.ts";
import type { FetchFn } from "../provider.ts";
import { testProvider } from "../test_provider.ts";
import { RECORDING_FILE } from "./format.ts";
import { firstDifference, recordingEdges, replayEdges } from "./session.ts";

const SECRET = "s3cr3t-value-42";

function fakeSuite(): { fetch: FetchFn; calls: number } {
  const state = { calls: 0, fetch: (() => Promise.resolve(new Response())) as FetchFn };
  state.fetch = async (input, init) => {
    state.calls++;
    const req = new Request(input, init);
    const body = req.body ? await req.json() : null;
    return Response.json({
      code: 0,
      msg: "ok",
      data: { echo: body, path: new URL(req.url).pathname, token: SECRET },
    });
  };
  return state;
}

Deno.test("a recorded exchange replays without the network, secrets redacted in the file", async () => {
  const dir = await Deno.makeTempDir();
  const suite = fakeSuite();
  const rec = recordingEdges(testProvider({ fetch: suite.fetch }), dir);
  const res = await rec.fetch("https://open.example.com/open-apis/x?b=2&a=1", {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ app_secret: SECRET, text: "hi" }),
  });
  const original = await res.json();
  const file = await Deno.readTextFile(join(dir, RECORDING_FILE));
  assert.ok(!file.includes(SECRET), "no secret in the recording");
  assert.equal(suite.calls, 1);

  const offline = testProvider({ fetch: () => Promise.reject(new Error("network used during replay")) });
  const rep = await replayEdges(offline, dir);
  const replayed = await (await rep.fetch("https://open.example.com/open-apis/x?a=1&b=2", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ app_secret: "other", text: "hi" }),
  })).json();
  assert.equal(replayed.data.path, original.data.path);
  assert.equal(replayed.data.token, "***");
});

Deno.test("a request the recording does not hold is a replay_mismatch naming the first difference", async () => {
  const dir = await Deno.makeTempDir();
  const rec = recordingEdges(testProvider({ fetch: fakeSuite().fetch }), dir);
  await (await rec.fetch("https://h/open-apis/a", {
    method: "POST",
    body: '{"text":"one"}',
    headers: { "content-type": "application/json" },
  })).text();
  const rep = await replayEdges(testProvider(), dir);
  await assert.rejects(
    rep.fetch("https://h/open-apis/a", {
      method: "POST",
      body: '{"text":"two"}',
      headers: { "content-type": "application/json" },
    }),
    (e: unknown) => e instanceof LarkitError && e.type === "replay_mismatch" && /body\.text/.test(e.message),
  );
  await assert.rejects(
    (await replayEdges(testProvider(), dir)).fetch("https://h/open-apis/b"),
    (e: unknown) =>
      e instanceof LarkitError && e.type === "replay_mismatch" &&
      /method: recorded POST, got GET/.test(e.message),
  );
});

Deno.test("replay hands back the recorded random ids so output is byte-identical", async () => {
  const dir = await Deno.makeTempDir();
  let n = 0;
  const rec = recordingEdges(testProvider({ fetch: fakeSuite().fetch, uuids: () => `uuid-${++n}` }), dir);
  const ids = [rec.random.uuid(), rec.random.uuid()];
  await (await rec.fetch("https://h/open-apis/a")).text();
  const rep = await replayEdges(testProvider({ uuids: () => "fresh" }), dir);
  assert.deepEqual([rep.random.uuid(), rep.random.uuid()], ids);
});

Deno.test("recorded lines keep the order the run drew them in, and output waits for them", async () => {
  const dir = await Deno.makeTempDir();
  let n = 0;
  // Appends that finish in reverse order: without one writer, the later id would land first.
  const base = testProvider({ uuids: () => `uuid-${++n}` });
  const files = {
    ...base.files,
    appendTextFile: async (path: string, text: string) => {
      if (text.includes("uuid-1")) await new Promise((r) => setTimeout(r, 20));
      await base.files.appendTextFile(path, text);
    },
  };
  const rec = recordingEdges({ ...base, files }, dir);
  rec.random.uuid();
  rec.random.uuid();
  await rec.stdout.write("done\n");
  const lines = (await Deno.readTextFile(join(dir, RECORDING_FILE))).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(lines.map((l) => l.kind), ["clock", "uuid", "uuid"]);
  assert.deepEqual(lines.slice(1).map((l) => l.value), ["uuid-1", "uuid-2"]);
  assert.equal(base.out.text(), "done\n");
});

Deno.test("firstDifference ignores idempotency fields that change per run", () => {
  assert.equal(firstDifference({ uuid: "a", x: 1 }, { uuid: "b", x: 1 }), null);
  assert.match(firstDifference({ x: 1 }, { x: 2 }) ?? "", /body\.x: recorded 1, got 2/);
});
