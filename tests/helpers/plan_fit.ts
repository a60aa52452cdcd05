/**
 * The emulator's own request validation applied to a dry run's planned requests: "" when a request names a
 * registry method (baseline or supplementary) and its path, query and body pass that method's schema (unknown
 * fields refused, as the emulator refuses them by default).
 */
import { findApiMethod } from "../../sandbox/generic.ts";
import { checkRequest } from "../../sandbox/request_check.ts";
import { ReplyError } from "../../sandbox/reply.ts";

export interface Planned {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  body?: unknown;
}

export async function planProblems(req: Planned): Promise<string> {
  const path = new URL(req.url).pathname;
  const { found } = await findApiMethod(req.method, path);
  if (!found) return `${req.method} ${path}: no registry method`;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(req.params ?? {})) if (v !== undefined) query.set(k, String(v));
  const bytes = new TextEncoder().encode(req.body === undefined ? "" : JSON.stringify(req.body));
  const request = new Request(`http://x${path}`, {
    method: req.method,
    headers: { "content-type": "application/json" },
    body: req.method === "GET" ? undefined : bytes,
  });
  try {
    await checkRequest({ req: request, query, bytes }, found);
    return "";
  } catch (e) {
    if (e instanceof ReplyError) return `${req.method} ${path}: ${e.message}`;
    throw e;
  }
}

/** Every problem of a dry-run document's requests. */
export async function dryRunProblems(api: Planned[]): Promise<string[]> {
  return (await Promise.all(api.map(planProblems))).filter(Boolean);
}
