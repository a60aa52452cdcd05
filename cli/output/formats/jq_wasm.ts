/**
 * Serves jq-web its jq.wasm from bytes embedded in larkit (a bytes import, `unstable: ["raw-imports"]` in
 * deno.json), so a `deno bundle` output or a `deno compile` binary needs no file beside it.
 *
 * jq-web offers no way to hand it the bytes: on import it starts its emscripten factory, which reads
 * `<its directory>/jq.wasm` through `fs.readFileSync`. Evaluating this module (imported by jq_engine.ts just
 * before jq-web) answers that one read from the embedded bytes; `restore` puts the real function back once
 * jq-web has loaded.
 */
import fs from "node:fs";
import wasm from "jq-web/jq.wasm" with { type: "bytes" };

const readFileSync = fs.readFileSync;

(fs as { readFileSync: unknown }).readFileSync = (path: unknown, ...rest: unknown[]) =>
  String(path).endsWith("jq.wasm") ? wasm : (readFileSync as (...a: unknown[]) => unknown)(path, ...rest);

export function restore(): void {
  fs.readFileSync = readFileSync;
}
