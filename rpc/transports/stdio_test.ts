import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { BufferWriter, bytesReader } from "../../cli/provider.ts";
import { testProvider } from "../../cli/test_provider.ts";
import { createAppServer } from "../server.ts";
import { serveStdio } from "./stdio.ts";

Deno.test("stdio: a line past the limit is a parse error and the next line is served", async () => {
  const p = testProvider();
  const server = createAppServer({ provider: p, db: new DatabaseSync(":memory:") });
  const output = new BufferWriter();
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { clientInfo: { name: "t", version: "1" } },
  });
  const input = bytesReader(`${"x".repeat(5_000)}\n${init}\n`);
  await serveStdio(server, { input, output, maxLineBytes: 1_000 });
  await server.close();
  const replies = output.text().trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(replies[0].error.code, -32700);
  assert.match(replies[0].error.data?.detail ?? replies[0].error.message, /limit|exceeds|1000/);
  assert.equal(replies[1].id, 1);
  assert.ok(replies[1].result, JSON.stringify(replies[1]));
});
