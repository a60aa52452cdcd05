/**
 * A request's URL: the OpenAPI path, checked, on the account's OpenAPI base, with its query. Apart from the
 * client (`client.ts`, its retries and suite errors) so that a dry run, which shows the URL and sends
 * nothing, loads none of it (issue 17).
 */
import { type Query, queryPairs } from "../output/dry_run.ts";
import { errors } from "../output/errors.ts";

export function appendQuery(url: URL, query: Query = {}): URL {
  for (const [k, v] of queryPairs(query)) url.searchParams.append(k, v);
  return url;
}

/**
 * An OpenAPI path that stays under `/open-apis/` once the suite decodes it: no `.`/`..` segment (plain or
 * percent-encoded), no encoded `/` or `\`, no `?` or `#` (plain or encoded: the query goes in `query`), no
 * double encoding. Checked for every layer before anything is sent, so no path can carry the bearer token
 * to another endpoint of the host.
 */
export function checkApiPath(path: string): string {
  const refuse = (why: string) =>
    errors.validation(`invalid API path ${JSON.stringify(path)}: ${why}`, {
      hint: "paths look like /open-apis/calendar/v4/calendars; query parameters go in --params",
    });
  if (!path.startsWith("/open-apis/")) {
    throw errors.validation(`API paths start with /open-apis/: ${path}`, {
      hint: "e.g. /open-apis/calendar/v4/calendars",
    });
  }
  if (/[?#]/.test(path)) throw refuse("a query string or fragment belongs in the parameters, not the path");
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw refuse("malformed percent-encoding");
  }
  if (/%(2f|5c)/i.test(path) || decoded.includes("\\")) throw refuse("an encoded slash or a backslash");
  if (/[?#]/.test(decoded)) throw refuse("an encoded ? or #");
  if (/%[0-9a-f]{2}/i.test(decoded)) throw refuse("double percent-encoding");
  if (decoded.split("/").some((s) => s === "." || s === "..")) throw refuse(". or .. segments");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) throw refuse("control characters");
  return path;
}

/** The URL a request to `path` goes to; the path is checked before the base is asked for. */
export async function apiUrl(path: string, base: () => Promise<string>, query?: Query): Promise<string> {
  checkApiPath(path);
  return appendQuery(new URL(path, await base()), query).toString();
}
