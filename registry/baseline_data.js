// @ts-self-types="./baseline_data.d.ts"
// A JS shim so `deno check` never type-checks the multi-MB JSON (see baseline_data.d.ts). The service files
// are imported lazily, one per run, and are still part of the module graph, so `deno compile` embeds them.
import index from "./baseline/index.json" with { type: "json" };

export const baselineIndex = index;

export async function loadBaselineService(name) {
  const mod = await import(`./baseline/services/${name}.json`, { with: { type: "json" } });
  return mod.default;
}
