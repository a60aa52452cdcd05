/**
 * Every request the registry knows is checked against its method's request schema before any handler runs,
 * hand-written route or generic (`server.ts` calls `checkRequest` once): path parameters (enums), the query,
 * a JSON body and a multipart form's fields by name. A missing required field, a wrong type or enum value,
 * and -- unless the emulator runs with lenient fields -- a field the method does not take are refused with
 * the suite's 400 `99992402 field validation failed`, `error.field_violations: [{field, description}]`
 * naming each field path. The suite itself ignores an unknown field silently, so a misspelt field loses its
 * data unseen; the emulator refuses it by default, and answers as production does with `lenientFields`.
 */
import type { JsonSchema } from "../registry/fields.ts";
import { requestSchemasOf } from "../registry/shapes.ts";
import { validateValue } from "../registry/validate.ts";
import type { FoundMethod } from "./generic.ts";
import { raise } from "./reply.ts";
import mcpTools from "../registry/mcp_tools.json" with { type: "json" };

export interface CheckOptions {
  /** Ignore fields the method does not declare, as production does (still refuse missing or mistyped ones). */
  lenientFields?: boolean;
}

interface Violation {
  field: string;
  description: string;
}

/** At most this many violations are named in one answer. */
const MAX_VIOLATIONS = 10;

/** The suite's 99992402 with one field violation per problem. */
function refuse(problems: Violation[]): never {
  const named = problems.slice(0, MAX_VIOLATIONS);
  return raise(
    400,
    99992402,
    `field validation failed: ${named.map((p) => `${p.field}: ${p.description}`).join("; ")}`,
    { field_violations: named },
  );
}

function violationOf(text: string): Violation {
  const i = text.indexOf(": ");
  return { field: text.slice(0, i), description: text.slice(i + 2) };
}

/** Text values (a query, a form field) as their schema types them: `"20"` an integer, `"true"` a boolean. */
function coerce(schema: JsonSchema | undefined, values: string[]): unknown {
  const one = (v: string, type: unknown): unknown => {
    if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    if (type === "boolean" && (v === "true" || v === "false")) return v === "true";
    return v;
  };
  if (schema?.type === "array") {
    const items = (Array.isArray(schema.items) ? undefined : schema.items) ?? {};
    return values.flatMap((v) => v.split(",")).map((v) => one(v, items.type));
  }
  return one(values[0], schema?.type);
}

/** Field name -> its values, as a form or query carries them (a key may repeat). */
function grouped(entries: Iterable<[string, string]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of entries) out.set(k, [...out.get(k) ?? [], v]);
  return out;
}

function typed(schema: JsonSchema, values: Map<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, vs] of values) out[name] = coerce(schema.properties?.[name], vs);
  return out;
}

async function formFields(ctx: CheckCtx): Promise<{ fields: Map<string, string[]>; bad?: Violation }> {
  try {
    const form = await new Request("http://form.invalid/", {
      method: "POST",
      headers: { "content-type": ctx.req.headers.get("content-type") ?? "" },
      body: ctx.bytes,
    }).formData();
    // A file part stands for itself; whether a file field got a file is the upload handler's business.
    return { fields: grouped([...form].map(([k, v]) => [k, typeof v === "string" ? v : "(file)"])) };
  } catch {
    return {
      fields: new Map(),
      bad: { field: "body", description: "request body is not a valid multipart form" },
    };
  }
}

/** A multipart form has no types: a file field takes a file part or a text part (its bytes). */
function formSchema(body: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(body.properties ?? {}).map(([k, s]) =>
      [k, s.format === "binary" || s.type === "object" || s.type === "array" ? {} : s] as const
    ),
  );
  return { ...body, properties };
}

type CheckCtx = { req: Request; query: URLSearchParams; bytes: Uint8Array<ArrayBuffer> };

/** Throws the 99992402 reply (a `ReplyError`) when the request does not fit its method's schema. */
export async function checkRequest(
  ctx: CheckCtx,
  found: FoundMethod,
  opts: CheckOptions = {},
): Promise<void> {
  const schemas = requestSchemasOf(found.method);
  const validate = { unknown: opts.lenientFields ? "ignore" : "refuse" } as const;
  const problems: Violation[] = [];
  for (const [name, value] of Object.entries(found.params)) {
    const s = schemas.path.properties?.[name];
    if (s?.enum && !s.enum.some((e) => String(e) === value)) {
      problems.push({ field: name, description: `${value} is not one of ${s.enum.join(", ")}` });
    }
  }
  const query = typed(schemas.query, grouped(ctx.query));
  for (const p of validateValue(schemas.query, query, "", [], validate)) problems.push(violationOf(p));
  // A GET body cannot be sent by most clients (larkit's included), so GET bodies are not checked.
  const type = ctx.req.headers.get("content-type") ?? "";
  if (schemas.body && ctx.req.method !== "GET") {
    if (type.startsWith("multipart/form-data")) {
      const { fields, bad } = await formFields(ctx);
      if (bad) problems.push(bad);
      const body = formSchema(schemas.body);
      for (const p of validateValue(body, typed(body, fields), "", [], validate)) {
        problems.push(violationOf(p));
      }
    } else if (type === "" || type.includes("json")) {
      let body: unknown = {};
      try {
        body = ctx.bytes.length ? JSON.parse(new TextDecoder().decode(ctx.bytes)) : {};
        for (const p of validateValue(schemas.body, body, "", [], validate)) problems.push(violationOf(p));
      } catch {
        problems.push({ field: "body", description: "request body is not valid JSON" });
      }
    }
  }
  if (problems.length) refuse(problems);
}

/**
 * An MCP `tools/call`'s arguments against the tool's declared input schema (`registry/mcp_tools.json`, closed
 * objects): the violations, empty when they fit; undefined when no such tool is declared. The MCP endpoint
 * answers them as a tool failure (an `isError` result with 99992402 and the violations); the request-contract
 * sweep holds planned calls to them.
 */
export function mcpArgumentProblems(
  tool: string,
  args: unknown,
  opts: CheckOptions = {},
): Violation[] | undefined {
  const tools = mcpTools.tools as Record<string, JsonSchema>;
  if (!Object.hasOwn(tools, tool)) return undefined;
  const validate = { unknown: opts.lenientFields ? "ignore" : "refuse" } as const;
  return validateValue(tools[tool], args ?? {}, "", [], validate).map(violationOf);
}
