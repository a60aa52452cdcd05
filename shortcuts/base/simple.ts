/**
 * The base shortcuts that are one bitable v1 call each (read a base, list tables, create a field, ...), built
 * from a small declaration: the flags, the request (method, path, query, body -- pure functions of the flags)
 * and, for lists, the list field. Lists page with the common paging flags and `--page-all`; every read has
 * `--format`. Scopes are the reference's granular `base:*` names.
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, type FlagSpecs, type FlagValues, type Method, type Shortcut } from "../declare.ts";
import type { Risk } from "../../cli/provider.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import { tableFlags } from "./table.ts";

export const APPS = "/open-apis/bitable/v1/apps";
const enc = encodeURIComponent;

/** IDs the suite issues are letters, digits, `_` and `-`; anything else fails before a request is made. */
export function idOf(name: string, value: string): string {
  if (!/^[\w-]+$/.test(value)) throw errors.validation(`--${name} "${value}" is not an ID`);
  return value;
}
export const appPath = (f: { "base-token": string }) => `${APPS}/${enc(idOf("base-token", f["base-token"]))}`;
export const tablePath = (f: { "base-token": string; "table-id": string }) =>
  `${appPath(f)}/tables/${enc(idOf("table-id", f["table-id"]))}`;

export { tableFlags };
export const baseFlag = { "base-token": tableFlags["base-token"] };

/** A `--json` flag's value as an object (the suite's request fragment). */
export function objectOf(name: string, value: unknown): Record<string, unknown> {
  if (value === undefined) throw errors.validation(`--${name} is required`);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw errors.validation(`--${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

interface Spec<F extends FlagSpecs> {
  command: `+${string}`;
  aliases?: `+${string}`[];
  description: string;
  examples: string[];
  risk: Risk;
  scopes: string[];
  flags: F;
  method: Method;
  path: (f: FlagValues<F>) => string;
  params?: (f: FlagValues<F>) => Record<string, string | number | boolean | undefined>;
  body?: (f: FlagValues<F>) => unknown;
  /** A list: the field holding the items (paged with `--page-size`/`--page-token`/`--page-all`). */
  list?: string;
  /** A list's table/csv columns, most important first. */
  columns?: Column[];
  /** The most items per page the suite serves. */
  maxPage?: number;
  /** A list the suite answers in one piece, without `page_size`/`page_token` (no paging flags). */
  unpaged?: true;
  /** What a write's result shows besides the suite's answer (e.g. the ID it addressed). */
  echo?: (f: FlagValues<F>) => Record<string, unknown>;
}

/** A page of any list: the paging fields, and the list under the spec's own field name. */
const Page = z.catchall(PageInfo, z.unknown());

export function simple<F extends FlagSpecs>(spec: Spec<F>): Shortcut<FlagSpecs> {
  const read = spec.risk === "read";
  const flags = spec.list && !spec.unpaged
    ? {
      ...spec.flags,
      ...pageFlags({ default: Math.min(100, spec.maxPage ?? 100), max: spec.maxPage ?? 100, noun: "items" }),
    }
    : spec.flags;
  return defineShortcut({
    service: "base",
    command: spec.command,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    description: spec.description,
    examples: spec.examples,
    risk: spec.risk,
    authTypes: ["user", "bot"],
    scopes: { user: spec.scopes, bot: spec.scopes },
    hasFormat: read,
    ...(spec.columns ? { columns: spec.columns } : {}),
    flags: flags as F,
    async run(ctx) {
      const f = ctx.flags as FlagValues<F>;
      const call = {
        method: spec.method,
        path: spec.path(f),
        params: spec.params?.(f),
        ...(spec.body ? { body: spec.body(f) } : {}),
      };
      if (spec.list && spec.unpaged) {
        const data = await ctx.api({ ...call, response: z.looseObject({}), planned: { [spec.list]: [] } });
        const items = (data[spec.list] as unknown[] | null | undefined) ?? [];
        return await ctx.outFormat(items);
      }
      if (spec.list) {
        const field = spec.list;
        const { pages, meta } = await listPages(ctx, ctx.flags as never, {
          ...call,
          response: Page,
          planned: { [field]: [], has_more: false },
        });
        const items = pages.flatMap((p) => (p[field] as unknown[] | null | undefined) ?? []);
        return await ctx.outFormat(items, meta(items.length));
      }
      const data = await ctx.api({ ...call, response: z.unknown(), planned: {} });
      const out = { ...spec.echo?.(f), ...(data && typeof data === "object" ? data : {}) };
      if (read) await ctx.outFormat(out);
      else await ctx.out(out);
    },
  });
}
