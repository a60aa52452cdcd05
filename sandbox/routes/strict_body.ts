/**
 * A hand-written route's body read as strictly as the suite reads it: the schema is a `z.strictObject`, so a
 * missing required field, a wrong type and an unknown field all answer 400 / 99992402 "field validation
 * failed" with one `field_violations` entry per problem, named by its path -- the envelope the generic
 * validation sends (sandbox/request_check.ts). An unknown field is refused rather than ignored: a misspelt
 * field would otherwise lose data unseen -- unless the emulator runs with lenient fields, where unknown fields
 * are dropped, as the suite ignores them, and the rest is read as strictly.
 */
import type * as z from "zod";
import { raise } from "../reply.ts";
import { bodyJson, type RequestCtx } from "../router.ts";

export function strictBody<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  return parse(ctx, schema, bodyJson(ctx));
}

/** The query the same way: `z.strictObject` of the parameters the method has (values arrive as text). */
export function strictQuery<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  return parse(ctx, schema, Object.fromEntries(ctx.query));
}

function parse<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (!ctx.st.lenientFields) return refuse(parsed.error);
  // zod names every unknown key in one pass, nested ones included: drop them all, then read the rest.
  for (const i of parsed.error.issues) {
    if (i.code !== "unrecognized_keys") continue;
    const at = i.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k], raw);
    for (const k of i.keys) delete (at as Record<string, unknown>)[k];
  }
  const again = schema.safeParse(raw);
  return again.success ? again.data : refuse(again.error);
}

function refuse(error: z.core.$ZodError): never {
  const problems = error.issues.flatMap((i) => {
    const at = i.path.map(String);
    if (i.code === "unrecognized_keys") {
      return i.keys.map((k) => ({ field: [...at, k].join("."), description: "unknown field" }));
    }
    return [{ field: at.join(".") || "body", description: i.message }];
  });
  return raise(
    400,
    99992402,
    `field validation failed: ${problems.map((p) => `${p.field}: ${p.description}`).join("; ")}`,
    { field_violations: problems },
  );
}
