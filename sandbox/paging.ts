/**
 * The suite's pagination: `page_size` (clamped to the endpoint's max), an opaque `page_token`, `has_more`.
 */
import { invalidParam } from "./reply.ts";

export interface Page {
  offset: number;
  size: number;
}

export function encodePageToken(offset: number): string {
  return new TextEncoder().encode(`offset:${offset}`).toBase64({ alphabet: "base64url", omitPadding: true });
}

export function decodePageToken(token: string): number {
  let text: string;
  try {
    text = new TextDecoder().decode(Uint8Array.fromBase64(token, { alphabet: "base64url" }));
  } catch {
    return invalidParam("page_token is invalid");
  }
  const m = /^offset:(\d+)$/.exec(text);
  if (!m) return invalidParam("page_token is invalid");
  return Number(m[1]);
}

export function pageOf(query: URLSearchParams, defaults: { size: number; max: number }): Page {
  const rawSize = query.get("page_size");
  const size = rawSize === null || rawSize === "" ? defaults.size : Number(rawSize);
  if (!Number.isInteger(size) || size < 1) invalidParam("page_size must be a positive integer");
  const token = query.get("page_token");
  return { offset: token ? decodePageToken(token) : 0, size: Math.min(size, defaults.max) };
}

/** The list envelope every paginated endpoint shares; `page_token` only while more remain. */
export function pageBody<T>(
  items: T[],
  page: Page,
  total: number,
): { items: T[]; has_more: boolean; page_token?: string } {
  const next = page.offset + items.length;
  const has_more = next < total;
  return has_more ? { items, has_more, page_token: encodePageToken(next) } : { items, has_more };
}

/** Slices an in-memory list into one page. */
export function paginate<T>(all: T[], page: Page): { items: T[]; has_more: boolean; page_token?: string } {
  return pageBody(all.slice(page.offset, page.offset + page.size), page, all.length);
}
