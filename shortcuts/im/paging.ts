/**
 * One page or every page of a list call, for the list shortcuts of every service: the
 * same four flags everywhere (`--page-size`, `--page-token`, `--page-all`, `--page-limit`) and the same
 * `meta` (`count`, `has_more`, `page_token` when more remain; `truncated` when `--page-limit` stopped
 * `--page-all`), so a caller pages every list the same way.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import type { Meta } from "../../cli/output/envelope.ts";
import { type Call, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";

/** The paging flags of a list whose suite page holds at most `max` items. */
export function pageFlags(opts: { default: number; max: number; noun: string }) {
  return {
    "page-size": flag.integer(`${opts.noun} per page (1-${opts.max})`, {
      default: opts.default,
      min: 1,
      max: opts.max,
    }),
    "page-token": flag.string("page token from the previous page's meta.page_token"),
    "page-all": flag.boolean("follow meta.page_token through every page (at most --page-limit pages)"),
    "page-limit": flag.integer("most pages with --page-all (0 = no limit)", {
      default: 10,
      min: 0,
      max: 1000,
    }),
  };
}

export interface PageValues {
  "page-size": number;
  "page-token": string | undefined;
  "page-all": boolean;
  "page-limit": number;
}

/** The paging fields every list answer has; the list itself is the caller's. */
export const PageInfo = z.object({
  has_more: z._default(z.boolean(), false),
  page_token: z.optional(z.string()),
});

/** A list answer whose list is `items`, which the suite may leave out (or send as null) on an empty page. */
export function itemsPage<T extends z.ZodMiniType>(item: T) {
  return z.extend(PageInfo, { items: z.nullish(z.array(item)) });
}

export interface Pages<T> {
  pages: T[];
  meta: (count: number) => Meta;
}

/**
 * The call with `page_size`/`page_token` set from the flags, sent once or -- with `--page-all` -- while the suite
 * says `has_more`. `meta(count)` reports whether more remain after the last page fetched.
 */
export async function listPages<F extends FlagSpecs, T extends z.infer<typeof PageInfo>>(
  ctx: ShortcutContext<F>,
  f: PageValues,
  call: Call<T>,
  sizeParam = "page_size",
): Promise<Pages<T>> {
  if (f["page-all"] && f["page-token"]) {
    throw errors.validation("--page-all starts from the first page; drop --page-token");
  }
  const paged = {
    ...call,
    params: { ...call.params, [sizeParam]: f["page-size"], page_token: f["page-token"] },
  };
  const pages = f["page-all"]
    ? await ctx.paginate(paged, { maxPages: f["page-limit"] })
    : [await ctx.api(paged)];
  const last = pages.at(-1);
  const more = last?.has_more === true && !!last.page_token;
  return {
    pages,
    meta: (count) => ({ count, has_more: more, ...(more ? { page_token: last?.page_token } : {}) }),
  };
}
