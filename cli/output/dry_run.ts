/**
 * The dry-run document: what every layer (shortcuts, generated commands, raw `api`, MCP tool calls) prints for
 * `--dry-run`, built here and only here so the keys cannot drift between layers. It is the `data` of a success
 * envelope whose `meta` is `{ "dry_run": true }`:
 *
 *   { "as": "user" | "bot" | "none", "appId"?: "cli_...",
 *     "api": [{ "method", "url", "params"?, "body"?, "description"? }, ...],
 *     "idempotency_key"?: "...", ...facts }
 *
 * `url` is absolute and carries no query; the query is always `params`. Facts are layer-specific extras
 * (e.g. `mcp_tool`, `upload_method`) and may never shadow the fixed keys.
 */

export type QueryValue = string | number | boolean | (string | number | boolean)[] | undefined | null;
export type Query = Record<string, QueryValue>;

/** The one query encoding: each value (each item of a list) as a `key=value` pair; absent values skipped. */
export function queryPairs(query: Query = {}): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) out.push([k, String(item)]);
  }
  return out;
}

/** `?a=1&b=2`, or "" when nothing is left to send. */
export function queryString(query?: Query): string {
  const text = new URLSearchParams(queryPairs(query)).toString();
  return text ? `?${text}` : "";
}

export interface PlannedRequest {
  method: string;
  /** Absolute, without the query. */
  url: string;
  params?: Query;
  body?: unknown;
  /** What the step is for, when a command sends several or one whose purpose is not obvious. */
  description?: string;
}

export const DRY_RUN_KEYS = ["as", "appId", "api", "idempotency_key"] as const;

export interface DryRunDocument {
  as: "user" | "bot" | "none";
  appId?: string;
  api: PlannedRequest[];
  idempotency_key?: string;
  [fact: string]: unknown;
}

/** One request as the document lists it: empty params and an absent body are left out. */
export function plannedRequest(req: PlannedRequest): PlannedRequest {
  const params = Object.fromEntries(Object.entries(req.params ?? {}).filter(([, v]) => v !== undefined));
  return {
    method: req.method.toUpperCase(),
    url: req.url,
    ...(Object.keys(params).length ? { params } : {}),
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.description ? { description: req.description } : {}),
  };
}

export function dryRunDocument(parts: {
  as: DryRunDocument["as"];
  appId?: string;
  api: PlannedRequest[];
  idempotencyKey?: string;
  facts?: Record<string, unknown>;
}): DryRunDocument {
  const facts = Object.fromEntries(
    Object.entries(parts.facts ?? {}).filter(([k, v]) =>
      v !== undefined && !(DRY_RUN_KEYS as readonly string[]).includes(k)
    ),
  );
  return {
    as: parts.as,
    ...(parts.appId ? { appId: parts.appId } : {}),
    api: parts.api.map(plannedRequest),
    ...(parts.idempotencyKey ? { idempotency_key: parts.idempotencyKey } : {}),
    ...facts,
  };
}

/** The `pretty` form: `METHOD url?query` and the compact body, per request, with its description above. */
export function dryRunText(doc: DryRunDocument): string {
  return doc.api.map((req) => {
    const head = `${req.description ? `# ${req.description}\n` : ""}${req.method} ${req.url}${
      queryString(req.params)
    }`;
    return req.body === undefined ? head : `${head}\n  ${JSON.stringify(req.body)}`;
  }).join("\n") + "\n";
}
