/**
 * ID checks shared by the im shortcuts: the suite's prefixes (oc_ chats, om_ messages, ou_ people, cli_ apps)
 * caught before anything is sent, and comma-separated lists with a limit.
 */
import { errors } from "../../cli/output/errors.ts";

export function checkId(flagName: string, value: string, prefix: string, what: string): string {
  if (!value.startsWith(prefix)) {
    throw errors.validation(`--${flagName} must be ${what} (${prefix}\u2026), got "${value}"`);
  }
  return value;
}

/** `a, b,,c` -> `["a","b","c"]`, each checked, at most `max`, without repeats. */
export function idList(
  flagName: string,
  value: string | undefined,
  opts: { prefix: string; what: string; max: number },
): string[] {
  const ids = [...new Set((value ?? "").split(",").map((s) => s.trim()).filter(Boolean))];
  if (ids.length > opts.max) {
    throw errors.validation(`--${flagName} takes at most ${opts.max} IDs, got ${ids.length}`);
  }
  for (const id of ids) checkId(flagName, id, opts.prefix, opts.what);
  return ids;
}
