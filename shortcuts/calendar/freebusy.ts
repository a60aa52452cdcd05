/**
 * `calendar +freebusy`: the busy slots of a person in a time range (today by default). Without `--user-id`
 * it is the logged-in user, which needs the user identity.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { formatRfc3339, timeRange } from "../common/time.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";

const USER_INFO = "/open-apis/authen/v1/user_info";
const FREEBUSY = "/open-apis/calendar/v4/freebusy/list";
const CURRENT_USER = "<current user>";

const UserInfo = z.object({ open_id: z.string() });
const Freebusy = z.object({
  freebusy_list: z._default(z.array(z.looseObject({ start_time: z.string(), end_time: z.string() })), []),
});

/** Whose free/busy to query: the flag, else the logged-in user (as user only). */
function subject<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  given: string | undefined,
): string | undefined {
  if (given) {
    if (!given.startsWith("ou_")) {
      throw errors.validation(`--user-id must be an open_id starting with ou_, got "${given}"`);
    }
    return given;
  }
  if (ctx.identity === "bot") {
    throw errors.validation("--user-id is required when running as bot", {
      hint: "pass --user-id ou_\u2026, or run --as user to query your own free/busy",
    });
  }
  return ctx.userOpenId;
}

function freebusyBody(from: number, to: number, zone: string, userId: string) {
  return { time_min: formatRfc3339(from, zone), time_max: formatRfc3339(to, zone), user_id: userId };
}

export function freebusyText(data: unknown, columns?: number): string {
  const slots = data as { start_time: string; end_time: string }[];
  if (slots.length === 0) return "Free for the whole time range.\n";
  const rows = slots.map((s) => ({ busy_from: s.start_time, busy_until: s.end_time }));
  return renderTable(rows, columns, ["busy_from", "busy_until"]) +
    `\n${slots.length} busy slot(s)\n`;
}

export const freebusy = defineShortcut({
  service: "calendar",
  command: "+freebusy",
  description: "Query a user's free/busy slots (defaults to today and the logged-in user)",
  examples: [
    "larkit calendar +freebusy",
    "larkit calendar +freebusy --user-id ou_123 --start 2026-03-02 --end 2026-03-03 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.free_busy:read"], bot: ["calendar:calendar.free_busy:read"] },
  hasFormat: true,
  columns: ["start_time", "end_time"],
  flags: {
    start: flag.string("start time (ISO 8601, date, or Unix seconds; default: start of today)"),
    end: flag.string("end time (ISO 8601, date, or Unix seconds; default: end of the start day)"),
    "user-id": flag.string("target user open_id (ou_\u2026; default: the logged-in user)"),
  },
  async run(ctx) {
    const { from, to } = timeRange(ctx.flags.start, ctx.flags.end, ctx.now(), ctx.timeZone);
    const who = subject(ctx, ctx.flags["user-id"]) ?? (await ctx.api({
      method: "GET",
      path: USER_INFO,
      description: "resolve the current user",
      response: UserInfo,
      planned: { open_id: CURRENT_USER },
    })).open_id;
    const { freebusy_list: slots } = await ctx.api({
      method: "POST",
      path: FREEBUSY,
      params: { user_id_type: "open_id" },
      body: freebusyBody(from, to, ctx.timeZone, who),
      response: Freebusy,
      planned: { freebusy_list: [] },
    });
    await ctx.outFormat(slots, { count: slots.length, user_id: who }, freebusyText);
  },
});
