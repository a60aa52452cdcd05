/**
 * A baseline service's description text is kept apart from the rest of it: `baseline/descriptions/<name>.json`
 * beside `baseline/services/<name>.json`, the same tree holding only the `description`/`descriptionZh` strings.
 * Text in two languages is ~80% of a service file, and running a method reads none of it: parsing it cost every
 * generated command's run ≈ 1.4 ms (issue 17). Help, `schema` and the catalogue read a service with its text
 * put back. Pure.
 */

const TEXT_KEYS = new Set(["description", "descriptionZh"]);

type Tree = { [key: string]: unknown };

const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `spec` without its description strings, and those strings in a tree of the same keys. Only strings move: a
 * request field may itself be named `description` (an object), and arrays are kept whole.
 */
export function splitDescriptions(spec: Tree): { structure: Tree; text: Tree } {
  const structure: Tree = {};
  const text: Tree = {};
  for (const [key, value] of Object.entries(spec)) {
    if (TEXT_KEYS.has(key) && typeof value === "string") {
      text[key] = value;
    } else if (isTree(value)) {
      const inner = splitDescriptions(value);
      structure[key] = inner.structure;
      if (Object.keys(inner.text).length) text[key] = inner.text;
    } else structure[key] = value;
  }
  return { structure, text };
}

/** Puts the text back into `structure` itself (a service file's one parsed copy, which the registry caches). */
export function withDescriptions<T extends Tree>(structure: T, text: Tree): T {
  for (const [key, value] of Object.entries(text)) {
    if (typeof value === "string") (structure as Tree)[key] = value;
    else if (isTree(value) && isTree(structure[key])) withDescriptions(structure[key], value);
  }
  return structure;
}
