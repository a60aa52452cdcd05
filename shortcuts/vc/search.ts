/**
 * `vc +search`: meeting records found by keyword, time, organizer, participant or room (user identity only).
 * The filters go inside `meeting_filter` (the suite ignores them at the top level), the time range as RFC 3339.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { formatRfc3339 } from "../common/time.ts";
import { openIds, optionalRange, vcPath } from "./common.ts";

const Meeting = z.looseObject({ meeting_id: z.string(), topic: z.optional(z.string()) });
const Page = itemsPage(Meeting);

const meetingsText = tableOr("No meetings found.\n", [
  "meeting_id",
  "topic",
  "meeting_no",
  "start_time",
  "end_time",
]);

export const search = defineShortcut({
  service: "vc",
  command: "+search",
  description:
    "Search meeting records by keyword, time range, organizer, participant or room (user identity only)",
  examples: [
    'larkit vc +search --query "weekly sync" --start 2026-11-01 --format table',
    "larkit vc +search --participant-ids ou_123 --page-all",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["vc:meeting.search:read"] },
  hasFormat: true,
  columns: ["topic", "start_time", "end_time", "meeting_no", "meeting_id"],
  flags: {
    query: flag.string("keyword in the topic"),
    start: flag.string("meetings from (ISO 8601, date or Unix seconds)"),
    end: flag.string("meetings until (ISO 8601, date or Unix seconds)"),
    "organizer-ids": flag.string("organizers' open_ids, comma-separated"),
    "participant-ids": flag.string("participants' open_ids, comma-separated"),
    "room-ids": flag.string("meeting room IDs, comma-separated"),
    ...pageFlags({ default: 15, max: 30, noun: "meetings" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const rooms = f["room-ids"]?.split(",").map((s) => s.trim()).filter(Boolean);
    const range = optionalRange(f.start, f.end, ctx.timeZone);
    const rfc = (s: string) => formatRfc3339(Number(s) * 1000, ctx.timeZone);
    const time = {
      ...(range.start_time ? { start_time: rfc(range.start_time) } : {}),
      ...(range.end_time ? { end_time: rfc(range.end_time) } : {}),
    };
    const filter = {
      ...(Object.keys(time).length ? { start_time: time } : {}),
      ...(f["organizer-ids"] ? { organizer_ids: openIds("organizer-ids", f["organizer-ids"]) } : {}),
      ...(f["participant-ids"] ? { participant_ids: openIds("participant-ids", f["participant-ids"]) } : {}),
      ...(rooms?.length ? { open_room_ids: rooms } : {}),
    };
    const body = {
      ...(f.query ? { query: f.query } : {}),
      ...(Object.keys(filter).length ? { meeting_filter: filter } : {}),
    };
    if (Object.keys(body).length === 0) {
      throw errors.validation("give at least one filter", {
        hint: "--query, --start/--end, --organizer-ids, --participant-ids or --room-ids",
      });
    }
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: vcPath("/meetings/search"),
      body,
      response: Page,
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(items, meta(items.length), meetingsText);
  },
});
