/**
 * `--page-all`: follow `page_token` while the suite says `has_more`, one page at a time, so a caller can
 * stream items (ndjson: constant memory) or merge them (json). lark-cli's rules: `page_token` or
 * `next_page_token` continues; `--page-limit` pages at most (0 = no limit). A stop at the limit is reported by
 * every layer the same way: `meta.truncated` and `meta.page_token` in the result, and `truncationWarning`.
 */
import type { ApiRequest, HttpClient } from "./client.ts";

export interface PageOptions {
  /** Sets `page_size` on every request when given. */
  pageSize?: number;
  /** Most pages to fetch; 0 = unlimited. */
  pageLimit: number;
}

export interface Page {
  data: unknown;
  /** 1-based. */
  number: number;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** The token of the next page, or undefined when this was the last. */
export function nextPageToken(data: unknown): string | undefined {
  const d = record(data);
  if (!d || d.has_more !== true) return undefined;
  const token = d.page_token ?? d.next_page_token;
  return typeof token === "string" && token !== "" ? token : undefined;
}

export interface Pagination {
  pages: AsyncGenerator<Page>;
  /** After iteration: whether `--page-limit` stopped it while more pages existed. */
  limitReached(): boolean;
}

export function paginate(http: HttpClient, req: ApiRequest, opts: PageOptions): Pagination {
  let limited = false;
  async function* pages(): AsyncGenerator<Page> {
    let token: string | undefined;
    for (let number = 1;; number++) {
      const query = { ...req.query };
      if (opts.pageSize) query.page_size = opts.pageSize;
      if (token) query.page_token = token;
      const { data } = await http.call({ ...req, query });
      yield { data, number };
      token = nextPageToken(data);
      if (!token) return;
      if (opts.pageLimit > 0 && number >= opts.pageLimit) {
        limited = true;
        return;
      }
    }
  }
  return { pages: pages(), limitReached: () => limited };
}

/** A `--page-all` that stopped at its page limit while the suite had more. */
export interface Truncation {
  /** The limit that stopped it. */
  pageLimit: number;
  pagesFetched: number;
  /** The token of the first page not fetched: resumes exactly there. */
  pageToken: string;
}

/**
 * The `warning:` line of a stop at the page limit, the same for every layer and format. In the json envelope
 * the result already says it (`meta.truncated`, `meta.page_token`); for ndjson, table and csv, whose stdout holds
 * only items, this line is where a script reads it: fixed words, then `key=value` pairs without spaces up to
 * the first `;` (`^warning: truncated: (.*?);` splits on spaces).
 */
export function truncationWarning(t: Truncation, advice: string): string {
  return `truncated: page_limit=${t.pageLimit} pages_fetched=${t.pagesFetched} page_token=${t.pageToken}; ` +
    `more pages remain: ${advice}`;
}

/** The key of the list in a page's data: the first array-valued field (lark-cli's priority list first). */
const PREFERRED = ["items", "files", "events", "rooms", "records", "nodes", "members", "departments"];
export function listKey(data: unknown): string | undefined {
  const d = record(data);
  if (!d) return undefined;
  const arrays = Object.keys(d).filter((k) => Array.isArray(d[k]));
  return PREFERRED.find((k) => arrays.includes(k)) ?? arrays.sort()[0];
}

/** Merges pages into the first page's shape: the list concatenated, `has_more: false`, tokens removed. */
export function mergePages(pages: unknown[]): unknown {
  if (pages.length <= 1) return pages[0];
  const key = listKey(pages[0]);
  if (!key) return { pages };
  const merged: Record<string, unknown> = { ...record(pages[0]) };
  merged[key] = pages.flatMap((p) => (record(p)?.[key] as unknown[] | undefined) ?? []);
  merged.has_more = false;
  delete merged.page_token;
  delete merged.next_page_token;
  return merged;
}
