/** `minutes +search`: minutes found by keyword, owner, participant and time range. */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { openIds, optionalRange } from "../vc/common.ts";

const Minute = z.looseObject({ minute_token: z.string() });

export const search = defineShortcut({
  service: "minutes",
  command: "+search",
  description: "Search minutes by keyword, owner, participant and time range",
  examples: [
    'larkit minutes +search --query "roadmap" --format table',
    "larkit minutes +search --owner-ids ou_123 --start 2026-11-01 --page-all",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["minutes:minutes.search:read"], bot: ["minutes:minutes.search:read"] },
  hasFormat: true,
  columns: ["topic", "create_time", "owner_id", "minute_token"],
  flags: {
    query: flag.string("keyword"),
    "owner-ids": flag.string("owners' open_ids, comma-separated"),
    "participant-ids": flag.string("participants' open_ids, comma-separated"),
    start: flag.string("created from (ISO 8601, date or Unix seconds)"),
    end: flag.string("created until"),
    ...pageFlags({ default: 15, max: 50, noun: "minutes" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    // The filters go inside `filter` (the SDK's minutes.v1.minute.search), else the suite ignores them.
    const range = optionalRange(f.start, f.end, ctx.timeZone);
    const filter = {
      ...(f["owner-ids"] ? { owner_ids: openIds("owner-ids", f["owner-ids"]) } : {}),
      ...(f["participant-ids"] ? { participant_ids: openIds("participant-ids", f["participant-ids"]) } : {}),
      ...(Object.keys(range).length ? { create_time: range } : {}),
    };
    const body = {
      ...(f.query ? { query: f.query } : {}),
      ...(Object.keys(filter).length ? { filter } : {}),
    };
    if (Object.keys(body).length === 0) {
      throw errors.validation("give at least one filter", {
        hint: "--query, --owner-ids, --participant-ids or --start/--end",
      });
    }
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: "/open-apis/minutes/v1/minutes/search",
      body,
      response: itemsPage(Minute),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(
      items,
      meta(items.length),
      tableOr("No minutes found.\n", ["minute_token", "topic", "owner_id", "create_time"]),
    );
  },
});
