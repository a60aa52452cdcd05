/**
 * A service as running one of its methods reads it: without its description text. The generator writes it
 * beside the whole service (`baseline/runnable/<name>.json` next to `baseline/services/<name>.json`), because
 * text in two languages is ~70% of a service file and a method's run reads none of it: parsing it cost every
 * generated command's run ~ 1.4 ms (issue 17). Help, `schema` and the catalogue read the whole file, as it was
 * (putting the text back at run time cost more than it saved). Pure.
 */

const TEXT_KEYS = new Set(["description", "descriptionZh"]);

type Tree = { [key: string]: unknown };

const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

/** `spec` without its description strings: only strings go (a request field may be named `description`). */
export function runnableSpec(spec: Tree): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(spec)) {
    if (TEXT_KEYS.has(key) && typeof value === "string") continue;
    out[key] = isTree(value) ? runnableSpec(value) : value;
  }
  return out;
}
