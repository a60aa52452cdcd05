/**
 * Flag values a command checks as a group (numbers, combinations): a zod schema turns them into typed values,
 * and a mismatch becomes a `validation` error naming the flag.
 */
import type * as z from "zod";
import { errors } from "../output/errors.ts";

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function parseOptions<T extends z.ZodMiniType>(schema: T, raw: unknown, command: string): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag = issue.path.length ? `--${kebab(String(issue.path[0]))}: ` : "";
  throw errors.validation(`${flag}${issue.message}`, { hint: `see larkit ${command} --help` });
}
