/**
 * Suite responses are a boundary: shortcuts parse the fields they rely on with a schema, and a response of
 * the wrong shape is an `api_error` saying which call answered oddly, not a crash deep in a shortcut.
 */
import type * as z from "zod";
import { errors } from "../../cli/output/errors.ts";

export function parseResponse<S extends z.ZodMiniType>(schema: S, data: unknown, call: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw errors.api(
    `unexpected response from ${call}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    {
      hint: "the suite's answer did not have the expected shape; re-run with --debug to see it",
    },
  );
}
