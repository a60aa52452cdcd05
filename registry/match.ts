/**
 * Which registry method a request addresses: the same HTTP method and a matching path, the most literal
 * segments winning (`spaces/get_node` over `spaces/{space_id}`). Used by the emulator (every request) and by
 * `schema` (the methods a shortcut calls). Pure over the methods given.
 */
import type { ApiMethod } from "./method.ts";

export interface CompiledMethod {
  method: ApiMethod;
  pattern: RegExp;
  names: string[];
  literals: number;
}

export function compileMethod(method: ApiMethod): CompiledMethod {
  const names: string[] = [];
  let literals = 0;
  const source = method.path.split("/").map((seg) => {
    const p = /^\{(.+)\}$/.exec(seg) ?? /^:(.+)$/.exec(seg);
    if (!p) {
      literals++;
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
    names.push(p[1]);
    return "([^/]+)";
  }).join("/");
  return { method, pattern: new RegExp(`^${source}$`), names, literals };
}

/** The service a `/open-apis/<service>/...` path belongs to. */
export function serviceOfPath(path: string): string | undefined {
  return /^\/open-apis\/([a-z0-9_]+)\//.exec(path)?.[1];
}

export interface MethodMatch {
  method?: { method: ApiMethod; params: Record<string, string> };
  /** Some method has this path (with another HTTP method): the caller answers 405, not 404. */
  pathKnown: boolean;
}

export function matchMethod(methods: CompiledMethod[], httpMethod: string, path: string): MethodMatch {
  let best: { c: CompiledMethod; m: RegExpExecArray } | undefined;
  let pathKnown = false;
  for (const c of methods) {
    const m = c.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (c.method.httpMethod !== httpMethod) continue;
    if (!best || c.literals > best.c.literals) best = { c, m };
  }
  if (!best) return { pathKnown };
  const params: Record<string, string> = {};
  const { c, m } = best;
  c.names.forEach((n, i) => params[n] = decodeURIComponent(m[i + 1]));
  return { method: { method: c.method, params }, pathKnown };
}
