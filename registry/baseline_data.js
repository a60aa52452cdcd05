// @ts-self-types="./baseline_data.d.ts"
// A JS shim so `deno check` never type-checks the multi-MB JSON (see baseline_data.d.ts). The service files
// are imported lazily, one per run, through a specifier Deno cannot resolve ahead of time: a fixed one would put
// all 7 MB in every run's module graph (start-up). `deno task compile` embeds them with `--include`.
import index from "./baseline/index.json" with { type: "json" };

export const baselineIndex = index;

const read = async (dir, name) =>
  (await import(["./baseline/", dir, "/", name, ".json"].join(""), { with: { type: "json" } })).default;

export function loadBaselineService(name) {
  return read("services", name);
}

export function loadBaselineRunnable(service, resource) {
  return read("runnable", `${service}/${resource}`);
}
