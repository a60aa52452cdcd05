/**
 * A turn's `result` is the success envelope the command handed to cli/output, as a value -- never its stdout
 * text parsed back: with `--format table` stdout is a table and the turn still carries the envelope; with `--jq`
 * stdout is the filter's output and the turn carries the unfiltered envelope. The deltas still stream stdout.
 */
import assert from "node:assert/strict";
import { runCli } from "../cli/run.ts";
import { createAppServer } from "../rpc/server.ts";
import { InProcessClient } from "../rpc/transports/in-process.ts";
import { startEmulator } from "./helpers/emulator.ts";
import { initAndLogin } from "./helpers/login.ts";
import { cliProvider } from "./helpers/run_cli.ts";

interface TurnView {
  status: string;
  result?: { ok: boolean; identity?: string; data?: unknown };
}

Deno.test("a turn's result is the envelope the command emitted, whatever --format or --jq printed", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turn-result-" });
  const cwd = await Deno.makeTempDir({ prefix: "larkit-turn-result-cwd-" });
  const server = createAppServer({
    provider: cliProvider({ configDir, cwd }),
    runner: (argv, p, opts) => runCli(argv, p, opts),
  });
  const c = new InProcessClient(server);
  try {
    await initAndLogin(emu, configDir);
    await c.initialize();
    const { thread } = await c.request("thread/start") as { thread: { id: string } };
    const run = async (text: string) => {
      const from = c.received.length;
      const { turn } = await c.request("turn/start", {
        threadId: thread.id,
        input: [{ type: "text", text }],
      }) as {
        turn: { id: string };
      };
      const done = await c.waitFor(
        (m) => m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === turn.id,
        from,
      );
      const stdout = c.received.slice(from)
        .map((m) =>
          m.method === "command/exec/outputDelta" ? m.params as { stream: string; delta: string } : undefined
        )
        .filter((d) => d?.stream === "stdout")
        .map((d) => d?.delta).join("");
      return { turn: (done.params as { turn: TurnView }).turn, stdout };
    };

    const json = await run("larkit calendar calendars list --as bot");
    assert.equal(json.turn.status, "completed", JSON.stringify(json.turn));
    assert.deepEqual(json.turn.result, JSON.parse(json.stdout));

    const table = await run("larkit calendar calendars list --as bot --format table");
    assert.equal(table.turn.status, "completed", JSON.stringify(table.turn));
    assert.throws(() => JSON.parse(table.stdout), "stdout is the table");
    assert.deepEqual(table.turn.result, json.turn.result);

    const jq = await run("larkit calendar calendars list --as bot --jq .ok");
    assert.equal(jq.stdout, "true\n");
    assert.deepEqual(jq.turn.result, json.turn.result);
  } finally {
    c.close();
    await server.close();
    await emu.stop();
    await Deno.remove(configDir, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});
