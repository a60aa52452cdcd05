// @ts-self-types="./shapes_data.d.ts"
// A JS shim like baseline_data.js: `deno check` never type-checks the multi-MB shape JSON, and a service's
// shapes are imported lazily, only by `schema`, the emulator and tests (never on a command's path).
export async function loadShapeFile(service) {
  try {
    const mod = await import(`./shapes/${service}.json`, { with: { type: "json" } });
    return mod.default;
  } catch {
    return {};
  }
}
