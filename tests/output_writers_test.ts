/**
 * `cli/output` is the only module that writes to stdout and stderr: every result, error envelope, prompt and
 * diagnostic line leaves through it, so the output contract is decided in one place. This reads the sources
 * and fails on a direct write anywhere else.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { repoFiles } from "./helpers/repo_files.ts";
import { REPO } from "./helpers/run_main.ts";

const ROOMS = ["cli", "shortcuts", "registry", "rpc", "relay"];
/**
 * Developer build scripts, not part of larkit's runtime: the registry generator (`deno task registry:gen`) and the
 * zod bundle's rewrite (`deno task vendor:zod` runs it as a text-in, text-out process).
 */
const NOT_LARKIT = new Set(["registry/generate.ts", "cli/vendor/zod/eager.ts"]);
const WRITE = /\.(stdout|stderr)\.write\(|Deno\.(stdout|stderr)\b|console\.(log|error|warn|info|debug)\(/;

Deno.test("nothing outside cli/output writes to stdout or stderr", async () => {
  const offenders: string[] = [];
  for (const room of ROOMS) {
    for await (const file of repoFiles(room)) {
      if (!file.endsWith(".ts") || file.endsWith("_test.ts")) continue;
      if (file.startsWith("cli/output/") || NOT_LARKIT.has(file)) continue;
      (await Deno.readTextFile(join(REPO, file))).split("\n").forEach((line, i) => {
        if (WRITE.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.deepEqual(offenders, []);
});
