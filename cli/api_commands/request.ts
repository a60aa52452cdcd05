/**
 * From a registry method and the user's `--params`/`--data` to the request to send, validated against the
 * metadata: path parameters filled (and checked: no `/`, `..`, `?`, `#`, `%`, control characters), required
 * and enum query parameters checked, unknown parameters refused. Every error names the parameter and the
 * `larkit schema ...` command that lists them. Pure.
 */
import type { Query, QueryValue } from "../http/client.ts";
import { errors } from "../output/errors.ts";
import type { RunnableMethod } from "../../registry/index.ts";

export interface BuiltRequest {
  method: string;
  path: string;
  query: Query;
  body?: unknown;
  /** The de-duplication key that makes this write safe to retry, when the method has one. */
  idempotencyKey?: { field: string; location: "query" | "body"; value: string; generated: boolean };
}

const PAGINATION_PARAMS = new Set(["page_token", "page_size"]);

function schemaHint(m: RunnableMethod): string {
  return `see the parameters: larkit schema ${m.id}`;
}

/** A path parameter value that cannot escape its segment. */
export function checkPathValue(name: string, value: string, m: RunnableMethod): string {
  // Control and bidi-override characters are exactly what must never reach a URL path.
  // deno-lint-ignore no-control-regex
  const invisible = /[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
  if (value === "" || value === "." || value === ".." || /[/?#%\\]/.test(value) || invisible.test(value)) {
    throw errors.validation(`invalid value for path parameter ${name}: ${JSON.stringify(value)}`, {
      hint: `path parameters must be plain identifiers; ${schemaHint(m)}`,
    });
  }
  return encodeURIComponent(value);
}

function queryValue(name: string, value: unknown, m: RunnableMethod): QueryValue {
  const ok = (v: unknown) => ["string", "number", "boolean"].includes(typeof v);
  if (ok(value)) return value as string | number | boolean;
  if (Array.isArray(value) && value.every(ok)) return value as (string | number | boolean)[];
  throw errors.validation(`parameter ${name} must be a string, number, boolean or a list of them`, {
    hint: schemaHint(m),
  });
}

export interface BuildOptions {
  /** `--page-all`: page_token/page_size are filled by the paginator, so not required from the user. */
  pageAll?: boolean;
  /** Generates the de-duplication key when the method has one and the user gave none. */
  uuid: () => string;
  /** `--idempotency-key`: the key to send instead of a generated one. */
  idempotencyKey?: string;
}

export function buildRequest(
  m: RunnableMethod,
  params: Record<string, unknown>,
  data: unknown,
  opts: BuildOptions,
): BuiltRequest {
  const params_ = { ...params };
  const defined = m.parameters;
  for (const name of Object.keys(params_)) {
    if (!Object.hasOwn(defined, name)) {
      const known = Object.keys(defined).sort().join(", ") || "none";
      throw errors.validation(`unknown parameter: ${name} (known: ${known})`, { hint: schemaHint(m) });
    }
  }
  let path = m.path;
  const query: Query = {};
  for (const [name, spec] of Object.entries(defined).sort(([a], [b]) => a < b ? -1 : 1)) {
    const value = params_[name];
    if (spec.location === "path") {
      if (value === undefined || value === null || value === "") {
        throw errors.validation(`missing required path parameter: ${name}`, {
          hint: `pass it in --params '{"${name}":"…"}'; ${schemaHint(m)}`,
        });
      }
      if (typeof value !== "string" && typeof value !== "number") {
        throw errors.validation(`path parameter ${name} must be a string`, { hint: schemaHint(m) });
      }
      path = path.replace(`{${name}}`, checkPathValue(name, String(value), m));
      continue;
    }
    if (value === undefined || value === null) {
      if (spec.required && !(opts.pageAll && PAGINATION_PARAMS.has(name))) {
        throw errors.validation(`missing required query parameter: ${name}`, {
          hint: `pass it in --params '{"${name}":"…"}'; ${schemaHint(m)}`,
        });
      }
      continue;
    }
    const allowed = spec.enum ?? spec.options?.map((o) => o.value);
    if (allowed?.length && !allowed.some((a) => String(a) === String(value))) {
      throw errors.validation(
        `invalid value ${JSON.stringify(value)} for parameter ${name}, allowed: ${allowed.join(", ")}`,
        { hint: schemaHint(m) },
      );
    }
    query[name] = queryValue(name, value, m);
  }
  const leftover = /\{([^}]+)\}/.exec(path);
  if (leftover) {
    throw errors.validation(`missing required path parameter: ${leftover[1]}`, { hint: schemaHint(m) });
  }
  checkBody(m, data);
  const built: BuiltRequest = { method: m.httpMethod, path, query, body: data };
  if (m.idempotency) {
    const { field, location } = m.idempotency;
    const bodyObj = data && typeof data === "object" && !Array.isArray(data)
      ? data as Record<string, unknown>
      : {};
    const inData = location === "query" ? query[field] : bodyObj[field];
    if (opts.idempotencyKey !== undefined && inData !== undefined && String(inData) !== opts.idempotencyKey) {
      throw errors.validation(
        `--idempotency-key conflicts with ${field} given in --${location === "query" ? "params" : "data"}`,
        {
          hint: "give the key once",
        },
      );
    }
    if (field === "uuid" && opts.idempotencyKey !== undefined && opts.idempotencyKey.length > 50) {
      throw errors.validation("--idempotency-key is at most 50 characters for this method", {
        hint: schemaHint(m),
      });
    }
    const carries = location === "query" || data === undefined || Object.keys(bodyObj).length > 0 ||
      (typeof data === "object" && data !== null && !Array.isArray(data));
    if (carries) {
      // A key makes the write safe to retry after a lost response: the suite de-duplicates on it. Without one
      // from the user, one is generated per invocation and reused by larkit's own retries.
      const given = inData ?? opts.idempotencyKey;
      const value = given !== undefined && given !== null ? String(given) : opts.uuid();
      if (location === "query") query[field] = value;
      else built.body = { ...bodyObj, [field]: value };
      built.idempotencyKey = { field, location, value, generated: given === undefined || given === null };
    }
  }
  return built;
}

function checkBody(m: RunnableMethod, data: unknown): void {
  if (m.httpMethod === "GET") {
    if (data !== undefined) {
      throw errors.validation(`${m.id} is a GET request and takes no --data`, { hint: schemaHint(m) });
    }
    return;
  }
  const required = Object.entries(m.requestBody ?? {}).filter(([, f]) => f.required && f.type !== "file");
  if (required.length === 0) return;
  if (data === undefined || data === null || typeof data !== "object" || Array.isArray(data)) {
    throw errors.validation(`--data must be a JSON object with: ${required.map(([k]) => k).join(", ")}`, {
      hint: schemaHint(m),
    });
  }
  for (const [name] of required) {
    if (!Object.hasOwn(data, name)) {
      throw errors.validation(`missing required body field: ${name}`, {
        hint: `add it to --data; ${schemaHint(m)}`,
      });
    }
  }
}
