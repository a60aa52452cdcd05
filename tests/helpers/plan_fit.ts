/**
 * The emulator's own request validation applied to a dry run's planned requests: "" when a request names a
 * registry method (baseline or supplementary) and its path, query and body pass that method's schema (unknown
 * fields refused, as the emulator refuses them by default). A method with a file field is a multipart upload:
 * its planned body is sent as form fields, the file as a file part. An MCP tool call (`POST /mcp`) is checked
 * against the tool's declared input schema (`registry/mcp_tools.json`).
 */
import { findApiMethod } from "../../sandbox/generic.ts";
import { checkRequest, mcpArgumentProblems } from "../../sandbox/request_check.ts";
import { ReplyError } from "../../sandbox/reply.ts";

export interface Planned {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  body?: unknown;
}

function mcpProblems(body: unknown): string {
  const call = body as { method?: string; params?: { name?: string; arguments?: unknown } } | undefined;
  if (call?.method !== "tools/call") return "";
  const name = String(call.params?.name);
  const problems = mcpArgumentProblems(name, call.params?.arguments);
  if (!problems) return `MCP tool ${name}: not declared in registry/mcp_tools.json`;
  const text = problems.map((p) => `${p.field}: ${p.description}`).join("; ");
  return problems.length ? `MCP tool ${name}: field validation failed: ${text}` : "";
}

/** The planned body as the multipart form the upload sends: text fields, the file fields as files. */
function formOf(body: unknown, fileFields: string[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (v === undefined) continue;
    if (fileFields.includes(k)) form.append(k, new Blob([String(v)]), "planned.bin");
    else form.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return form;
}

export async function planProblems(req: Planned): Promise<string> {
  const path = new URL(req.url).pathname;
  if (path === "/mcp" && req.method === "POST") return mcpProblems(req.body);
  const { found } = await findApiMethod(req.method, path);
  if (!found) return `${req.method} ${path}: no registry method`;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(req.params ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) query.append(k, String(item));
  }
  const multipart = found.method.fileFields.length > 0 && req.method !== "GET";
  const request = multipart
    ? new Request(`http://x${path}`, { method: req.method, body: formOf(req.body, found.method.fileFields) })
    : new Request(`http://x${path}`, {
      method: req.method,
      headers: { "content-type": "application/json" },
      body: req.method === "GET" || req.body === undefined ? undefined : JSON.stringify(req.body),
    });
  const bytes = new Uint8Array(await request.arrayBuffer());
  const headers = new Request(request.url, { method: request.method, headers: request.headers });
  try {
    await checkRequest({ req: headers, query, bytes }, found);
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
