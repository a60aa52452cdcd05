/**
 * Command names for suite methods, derived from the method's path the way lark-cli names them:
 * `calendar events instance_view` for `GET /open-apis/calendar/v4/calendars/:calendar_id/events/instance_view`.
 *
 * service  = the first path segment after `/open-apis/`;
 * resource = the path's collection segments after the version, parents singular and dotted (`event.attendees`),
 *            a leading parent named like the service dropped (`calendars/:id/events` -> `events`);
 * method   = the SDK method name in snake_case (`instanceView` -> `instance_view`).
 *
 * Two methods may land on the same name (an API in v1 and v2 of a service); `resolveCollisions` decides who
 * keeps the plain name, deterministically.
 */

export interface PathParts {
  service: string;
  /** `v4`, `v1`, ... */
  version: string;
  /** Segments after the version; path parameters keep their leading `:`. */
  segments: string[];
}

export function splitPath(path: string): PathParts {
  const m = /^\/open-apis\/([a-z0-9_]+)\/(v\d+)\/?(.*)$/.exec(path);
  if (!m) throw new Error(`not a versioned /open-apis/ path: ${path}`);
  return { service: m[1], version: m[2], segments: m[3] ? m[3].split("/") : [] };
}

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** The method part of an SDK name such as `calendar.v4.calendarEvent.instanceView`, in snake_case. */
export function methodNameOf(sdkName: string): string {
  return snakeCase(sdkName.split(".").at(-1) ?? sdkName);
}

const isParam = (segment: string) => segment.startsWith(":") || segment.startsWith("{");

const ID_SUFFIX = /_(id|ids|guid|token|key|code|name|type)$/;

/** `events` -> `event`, `replies` -> `reply`, `user_mailboxes` -> `user_mailbox`; the param name wins when it agrees. */
export function singular(collection: string, param?: string): string {
  const stem = param?.replace(/^[:{]|}$/g, "").replace(ID_SUFFIX, "");
  if (stem && stem !== collection && collection.startsWith(stem)) return stem;
  if (collection.endsWith("ies")) return collection.slice(0, -3) + "y";
  if (/(x|z|ch|sh|ss)es$/.test(collection) || collection.endsWith("boxes")) return collection.slice(0, -2);
  if (collection.endsWith("s") && !collection.endsWith("ss")) return collection.slice(0, -1);
  return collection;
}

/**
 * The dotted resource name of a path. Trailing fixed segments that spell the method (`/instance_view`,
 * `/tenant_access_token/internal` for `tenant_access_token_internal`) are the verb, not a collection.
 */
export function resourceNameOf(path: string, method: string): string {
  const { service, segments } = splitPath(path);
  let end = segments.length;
  for (let start = segments.length - 1; start >= 0 && !isParam(segments[start]); start--) {
    if (segments.slice(start).join("_") === method) {
      end = start;
      break;
    }
  }
  const parts: string[] = [];
  const kept = segments.slice(0, end);
  kept.forEach((segment, i) => {
    if (isParam(segment)) return;
    const next = kept[i + 1];
    const hasLaterCollection = kept.slice(i + 1).some((s) => !isParam(s));
    parts.push(next !== undefined && isParam(next) && hasLaterCollection ? singular(segment, next) : segment);
  });
  if (parts.length > 1 && singular(parts[0]) === service) parts.shift();
  return parts.join(".") || service;
}

export interface NamedMethod {
  service: string;
  resource: string;
  method: string;
  version: string;
  /** Stable tie-breaker: the SDK name is unique across the suite. */
  sdkName: string;
}

function versionNumber(v: string): number {
  return Number(v.slice(1));
}

/**
 * Gives every method a unique (service, resource, method). The newest API version keeps the plain name; an older
 * one is suffixed with its version (`create_v1`), then, if still taken, with a counter (`create_v1_2`). Input
 * order does not matter: candidates are ordered by version (newest first), then SDK name.
 */
export function resolveCollisions<T extends NamedMethod>(methods: T[]): T[] {
  const ordered = [...methods].sort((a, b) =>
    versionNumber(b.version) - versionNumber(a.version) || a.sdkName.localeCompare(b.sdkName)
  );
  const taken = new Set<string>();
  const key = (m: NamedMethod, name: string) => `${m.service} ${m.resource} ${name}`;
  return ordered.map((m) => {
    let name = m.method;
    if (taken.has(key(m, name))) name = `${m.method}_${m.version}`;
    for (let n = 2; taken.has(key(m, name)); n++) name = `${m.method}_${m.version}_${n}`;
    taken.add(key(m, name));
    return name === m.method ? m : { ...m, method: name };
  });
}
