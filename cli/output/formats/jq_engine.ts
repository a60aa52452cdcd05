/**
 * The jq engine: jq itself (jq-web, jq compiled to WebAssembly), loaded only when `--jq` is used because it
 * instantiates a 2.7 MB module. Imported dynamically by `jq.ts` and nowhere else.
 */
// Must come before jq-web: it serves jq-web the embedded jq.wasm while jq-web loads.
import { restore } from "./jq_wasm.ts";
import jqReady from "jq-web";

export interface JqEngine {
  /** Runs jq over a JSON text; throws an Error carrying jq's `exitCode` and `stderr` when jq fails. */
  raw(json: string, filter: string, flags?: string[]): string | undefined;
}

export const engine = (jqReady as unknown as Promise<JqEngine>).finally(restore);
