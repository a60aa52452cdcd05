/**
 * A service as running one of its methods reads it: one resource, without description text. The generator
 * writes each resource of a service on its own (`baseline/runnable/<name>/<resource>.json` beside
 * `baseline/services/<name>.json`), because a method's run reads one method and its resource's get and list:
 * text in two languages is ~70% of a service file, and parsing it cost every generated command's run ~1.4 ms;
 * the other resources, held in V8's young generation, took calendar's from 28 KB to 136 KB (issue 17). Help,
 * `schema` and the catalogue read the whole file, as it was (putting the text back at run time cost more than
 * it saved). Pure.
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

/** Each resource of `spec` as its own runnable service (the service's fields, that one resource), by name. */
export function runnableResources(spec: Tree & { resources: Tree }): Record<string, Tree> {
  const { resources, ...service } = runnableSpec(spec) as Tree & { resources: Tree };
  return Object.fromEntries(
    Object.entries(resources).map(([name, r]) => [name, { ...service, resources: { [name]: r } }]),
  );
}
