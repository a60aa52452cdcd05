import assert from "node:assert/strict";
import { LarkitError } from "../../cli/output/errors.ts";
import { runShortcut } from "../pipeline.ts";
import { testRun } from "../test_context.ts";
import { exportFile, importFile } from "./transfer.ts";

/** A suite whose conversion tasks never finish: the first check already lies past a 1 s deadline. */
function stuck(cwd?: string) {
  return testRun({
    cwd,
    respond: (req) => {
      if (req.method === "POST" && req.path.endsWith("/medias/upload_all")) {
        return { file_token: "boxcnMedia" };
      }
      if (req.method === "POST") return { ticket: "7369583175086912356" };
      return { result: { ticket: "7369583175086912356", job_status: 2 } };
    },
  });
}

async function timeoutOf(run: () => Promise<void>): Promise<LarkitError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof LarkitError) return e;
    throw e;
  }
  throw new Error("the wait did not time out");
}

const wait = { timeout: "1", "poll-interval": "2" };

Deno.test("+export that outlasts --timeout names the +task_result line with its ticket and file token", async () => {
  const t = stuck();
  const e = await timeoutOf(() =>
    runShortcut(t.run, exportFile, {
      dryRun: false,
      yes: true,
      flags: { token: "doxcnAbc", "file-extension": "pdf", ...wait },
    })
  );
  assert.equal(e.message, "export 7369583175086912356 still running after 1s");
  assert.equal(
    e.hint,
    "check it later with: larkit drive +task_result --scenario export --ticket 7369583175086912356 --file-token doxcnAbc",
  );
  assert.deepEqual(t.requests.map((r) => `${r.method} ${r.path}`), [
    "POST /open-apis/drive/v1/export_tasks",
    "GET /open-apis/drive/v1/export_tasks/7369583175086912356",
  ]);
});

Deno.test("+import that outlasts --timeout names the +task_result line with its ticket", async () => {
  const t = stuck();
  await Deno.writeTextFile(`${t.run.p.cwd}/t.csv`, "a,b\n1,2\n");
  const e = await timeoutOf(() =>
    runShortcut(t.run, importFile, {
      dryRun: false,
      yes: true,
      flags: { file: "t.csv", type: "sheet", ...wait },
    })
  );
  assert.equal(e.message, "import 7369583175086912356 still running after 1s");
  assert.equal(
    e.hint,
    "check it later with: larkit drive +task_result --scenario import --ticket 7369583175086912356",
  );
  assert.deepEqual(t.requests.map((r) => `${r.method} ${r.path}`).slice(1), [
    "POST /open-apis/drive/v1/import_tasks",
    "GET /open-apis/drive/v1/import_tasks/7369583175086912356",
  ]);
});
