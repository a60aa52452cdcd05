import assert from "node:assert/strict";
import { errorEnvelope, successEnvelope } from "../cli/output/envelope.ts";
import { errors } from "../cli/output/errors.ts";
import { testProvider } from "../cli/test_provider.ts";
import { type CommandRun, runCommand, type Runner } from "./command_run.ts";

function run(argv: string[], deltas: string[] = []): CommandRun {
  return {
    argv,
    signal: new AbortController().signal,
    approver: () => Promise.resolve("decline"),
    gate: () => undefined,
    cwd: "/",
    onOutput: (_stream, delta) => {
      deltas.push(delta);
      return Promise.resolve();
    },
  };
}

Deno.test("a turn's result is the envelope the command handed to its output, whatever stdout shows", async () => {
  const envelope = successEnvelope({ identity: "user", data: { items: [{ id: "a" }] } });
  // As `--format table` does: text on stdout, the envelope to the host.
  const runner: Runner = async (_argv, p) => {
    await p.stdout.write("ID\na\n");
    p.documents?.result(envelope);
    return 0;
  };
  const deltas: string[] = [];
  const outcome = await runCommand(testProvider(), runner, run(["x"], deltas));
  assert.equal(outcome.stdout, "ID\na\n");
  assert.deepEqual(deltas, ["ID\na\n"], "stdout still streams as it is written");
  assert.equal(outcome.result, envelope);
  assert.equal(outcome.error, undefined);
});

Deno.test("JSON on stdout that no output call emitted is not taken for a result", async () => {
  const runner: Runner = async (_argv, p) => {
    await p.stdout.write('{"ok":true,"data":{"forged":true}}\n');
    await p.stderr.write('{"ok":false}\n');
    return 0;
  };
  const outcome = await runCommand(testProvider(), runner, run(["x"]));
  assert.equal(outcome.result, undefined);
  assert.equal(outcome.error, undefined);
});

Deno.test("a command that throws is reported with the error envelope cli/output emitted", async () => {
  const runner: Runner = () => Promise.reject(errors.usage("bad flag"));
  const outcome = await runCommand(testProvider(), runner, run(["x"]));
  assert.deepEqual(outcome.error, errorEnvelope(errors.usage("bad flag")));
  assert.equal(outcome.exitCode, errors.usage("x").exitCode);
  assert.deepEqual(JSON.parse(outcome.stderr), outcome.error);
});
