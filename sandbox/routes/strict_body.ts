/**
 * A hand-written route's body read as strictly as the suite reads it: the schema is a `z.strictObject`, so a
 * missing required field, a wrong type and an unknown field all answer 400 / 99992402 "field validation
 * failed" with one `field_violations` entry per problem, named by its path -- the envelope the generic
 * validation sends (sandbox/generic.ts). An unknown field is refused rather than ignored: a misspelt field
 * would otherwise lose data unseen.
 */
import type * as z from "zod";
import { invalidParam, raise } from "../reply.ts";
import type { RequestCtx } from "../router.ts";

export function strictBody<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  let raw: unknown;
  try {
    raw = ctx.bytes.length ? JSON.parse(new TextDecoder().decode(ctx.bytes)) : {};
  } catch {
    return invalidParam("request body is not valid JSON");
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : refuse(parsed.error);
}

/** The query the same way: `z.strictObject` of the parameters the method has (values arrive as text). */
export function strictQuery<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  const parsed = schema.safeParse(Object.fromEntries(ctx.query));
  return parsed.success ? parsed.data : refuse(parsed.error);
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
