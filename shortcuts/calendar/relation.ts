/**
 * The meeting behind calendar events (`mget_instance_relation_info`): its VC meeting IDs, notes and minutes.
 * Shared by `calendar +meeting` and the vc shortcuts that accept `--calendar-event-ids`.
 */
import * as z from "zod";
import type { FlagSpecs, ShortcutContext } from "../declare.ts";
import { calendarPath } from "./primary_calendar.ts";

const Info = z.looseObject({
  event_id: z.string(),
  meeting_instance_ids: z.nullish(z.array(z.string())),
  meeting_notes: z.nullish(z.array(z.string())),
  meeting_minute: z.nullish(z.string()),
});
export type RelationInfo = z.infer<typeof Info>;
const Infos = z.object({ instance_relation_infos: z.nullish(z.array(Info)) });

export async function relationInfoOf<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  calendarId: string,
  eventIds: string[],
): Promise<RelationInfo[]> {
  const data = await ctx.api({
    method: "POST",
    path: calendarPath(calendarId, "/events/mget_instance_relation_info"),
    body: { event_ids: eventIds },
    description: "the meetings behind the events",
    response: Infos,
    planned: {
      instance_relation_infos: eventIds.map((event_id) => ({
        event_id,
        meeting_instance_ids: ["<meeting_id>"],
      })),
    },
  });
  return data.instance_relation_infos ?? [];
}
