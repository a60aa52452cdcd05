/**
 * What the vc shortcuts share: meeting ID lists, the vc v1 paths, optional time ranges as the suite's Unix
 * seconds, and the minute token a recording's URL carries.
 */
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";

const ID = /^[A-Za-z0-9_-]+$/;

/** `a, b,,c` -> unique IDs, each a plain token (no path characters), at least one, at most `max`. */
export function tokenList(flagName: string, value: string | undefined, max: number): string[] {
  const ids = [...new Set((value ?? "").split(",").map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) throw errors.validation(`--${flagName} needs at least one ID`);
  if (ids.length > max) throw errors.validation(`--${flagName} takes at most ${max} IDs, got ${ids.length}`);
  const bad = ids.find((id) => !ID.test(id));
  if (bad) throw errors.validation(`--${flagName}: "${bad}" is not an ID`);
  return ids;
}

/** One plain token (a meeting ID, a minute token), refused when it could change the request path. */
export function token(flagName: string, value: string): string {
  if (!ID.test(value)) throw errors.validation(`--${flagName}: "${value}" is not an ID`);
  return value;
}

export function vcPath(rest: string): string {
  return `/open-apis/vc/v1${rest}`;
}

/** `--start`/`--end` when given (no defaults: the suite's own range applies), as Unix seconds. */
export function optionalRange(
  start: string | undefined,
  end: string | undefined,
  zone: string,
): { start_time?: string; end_time?: string } {
  const from = start ? parseTime("start", start, zone) : undefined;
  const to = end ? parseTime("end", end, zone, true) : undefined;
  if (from !== undefined && to !== undefined && to <= from) {
    throw errors.validation("--end must be after --start");
  }
  return {
    ...(from !== undefined ? { start_time: unixSeconds(from) } : {}),
    ...(to !== undefined ? { end_time: unixSeconds(to) } : {}),
  };
}

/** `https://.../minutes/obcn...` -> `obcn...`: a recording's minute is named by the last segment of its URL. */
export function minuteTokenOf(url: string | undefined): string | undefined {
  return url?.match(/\/minutes\/([A-Za-z0-9_-]+)/)?.[1];
}

/** Comma-separated open_ids (ou_...), checked; undefined when the flag is absent. */
export function openIds(flagName: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = ids.find((id) => !id.startsWith("ou_"));
  if (bad) throw errors.validation(`--${flagName}: "${bad}" is not an open_id (ou_\u2026)`);
  return ids;
}
