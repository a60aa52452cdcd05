/**
 * Calendar shortcuts take `--calendar-id`, defaulting to the identity's primary calendar, which the suite
 * resolves through `POST /calendar/v4/calendars/primary`. The plan shows that lookup and `<primary>` in the
 * paths that depend on it.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import type { FlagSpecs, ShortcutContext } from "../declare.ts";

export const PRIMARY_PLACEHOLDER = "<primary>";
const PRIMARY_PATH = "/open-apis/calendar/v4/calendars/primary";

const PrimaryCalendars = z.object({
  calendars: z._default(z.array(z.object({ calendar: z.object({ calendar_id: z.string() }) })), []),
});

/** The calendar id to use: the given one, else the primary calendar of the resolved identity. */
export async function resolveCalendarId<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  given: string | undefined,
): Promise<string> {
  if (given) return given;
  const data = await ctx.api({
    method: "POST",
    path: PRIMARY_PATH,
    read: true,
    description: "(calendar-id omitted) resolve the primary calendar",
    response: PrimaryCalendars,
    planned: { calendars: [{ calendar: { calendar_id: PRIMARY_PLACEHOLDER } }] },
  });
  const id = data.calendars[0]?.calendar.calendar_id;
  if (!id) {
    throw errors.notFound(`the ${ctx.identity} identity has no primary calendar`, {
      hint: "pass --calendar-id <id> (larkit calendar calendars list shows the calendars)",
    });
  }
  return id;
}

export function calendarPath(calendarId: string, rest = ""): string {
  return `/open-apis/calendar/v4/calendars/${encodeURIComponent(calendarId)}${rest}`;
}
