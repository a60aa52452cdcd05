/**
 * The sheets shortcuts that are one call on a spreadsheet or one of its sheets, built from a declaration: the
 * extra flags and the request as a pure function of the target (token, sheet, cells) and the flags. The
 * target comes from `--url`/`--spreadsheet-token`, `--sheet-id` and `--range` as for `+cells-get`; a shortcut
 * that works on a sheet and names none acts on the first sheet (looked up first).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import type { Risk } from "../../cli/provider.ts";
import { defineShortcut, type FlagSpecs, type FlagValues, type Method, type Shortcut } from "../declare.ts";
import { resolveSheetId, sheetFlags, targetOf } from "./spreadsheet.ts";

export const READ = ["sheets:spreadsheet:read"];
export const WRITE = ["sheets:spreadsheet:write_only"];
export const v2 = (token: string) => `/open-apis/sheets/v2/spreadsheets/${encodeURIComponent(token)}`;
export const v3 = (token: string) => `/open-apis/sheets/v3/spreadsheets/${encodeURIComponent(token)}`;
export const sheetV3 = (t: Target) => `${v3(t.token)}/sheets/${encodeURIComponent(t.sheetId)}`;

export interface Target {
  token: string;
  sheetId: string;
  /** The cells part of `--range` (`A1:D10`), if any. */
  cells?: string;
}

export interface Request {
  method: Method;
  path: string;
  params?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

interface Spec<F extends FlagSpecs> {
  command: `+${string}`;
  aliases?: `+${string}`[];
  description: string;
  examples: string[];
  risk: Risk;
  flags: F;
  /** false: the request addresses the spreadsheet, not one sheet (no lookup of the first sheet). */
  sheet?: boolean;
  /** The sheet must be named (`--sheet-id`, the URL or the range): never "the first sheet" by default. */
  named?: boolean;
  request: (t: Target, f: FlagValues<F>) => Request;
  /** What the result shows besides the suite's answer. */
  echo?: (t: Target, f: FlagValues<F>) => Record<string, unknown>;
}

export function simple<F extends FlagSpecs>(spec: Spec<F>): Shortcut<FlagSpecs> {
  const read = spec.risk === "read";
  const scopes = read ? READ : WRITE;
  return defineShortcut({
    service: "sheets",
    command: spec.command,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    description: spec.description,
    examples: spec.examples,
    risk: spec.risk,
    authTypes: ["user", "bot"],
    scopes: { user: scopes, bot: scopes },
    hasFormat: read,
    flags: { ...sheetFlags, ...spec.flags },
    async run(ctx) {
      const f = ctx.flags as unknown as FlagValues<F> & FlagValues<typeof sheetFlags>;
      const target = targetOf(f);
      if (spec.named && !target.sheetId) {
        throw errors.validation(
          "name the sheet: --sheet-id, a URL with ?sheet=, or --range <sheetId>!\u2026",
        );
      }
      const sheetId = spec.sheet === false ? "" : await resolveSheetId(ctx, target);
      const t: Target = { token: target.token, sheetId, cells: target.cells };
      const req = spec.request(t, f);
      const data = await ctx.api({ ...req, response: z.unknown(), planned: {} });
      const out = {
        spreadsheet_token: t.token,
        ...(sheetId ? { sheet_id: sheetId } : {}),
        ...spec.echo?.(t, f),
        ...(data && typeof data === "object" ? data : {}),
      };
      if (read) await ctx.outFormat(out);
      else await ctx.out(out);
    },
  });
}
