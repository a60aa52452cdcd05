// @ts-self-types="./shapes_data.d.ts"
// A JS shim like baseline_data.js: `deno check` never type-checks the multi-MB shape JSON, and a service's
// shapes are imported lazily, only by `schema`, the emulator and tests (never on a command's path).
export async function loadShapeFile(service) {
  try {
    // A specifier Deno cannot resolve ahead of time keeps the 3 MB of shapes out of every run's module graph
    // (start-up); `deno task compile` embeds them with `--include registry/shapes/`.
    const mod = await import(["./shapes/", service, ".json"].join(""), { with: { type: "json" } });
    return mod.default;
  } catch {
    return {};
  }
}
