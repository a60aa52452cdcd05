/**
 * The meeting-bot shortcuts: the caller's bot joins and leaves meetings, lists the meetings a person is in,
 * reads a meeting's event log and posts in the meeting chat. One declaration per shortcut, sharing the paths.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { optionalRange, token, vcPath } from "./common.ts";

const Meeting = z.looseObject({ id: z.optional(z.string()), meeting_id: z.optional(z.string()) });
const JOIN_SCOPE = ["vc:meeting.bot.join:write"];

export const meetingJoin = defineShortcut({
  service: "vc",
  command: "+meeting-join",
  description: "Have the caller's meeting bot join a meeting by its meeting number",
  examples: [
    "larkit vc +meeting-join --meeting-number 123456789",
    "larkit vc +meeting-join --meeting-number 123456789 --password 0000",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: JOIN_SCOPE, bot: JOIN_SCOPE },
  hasFormat: false,
  flags: {
    "meeting-number": flag.requiredString("the 9-digit meeting number"),
    password: flag.string("meeting password"),
    "call-id": flag.string("call ID, when joining a call"),
  },
  async run(ctx) {
    const number = ctx.flags["meeting-number"];
    if (!/^\d{9}$/.test(number)) {
      throw errors.validation(`--meeting-number must be 9 digits, got "${number}"`);
    }
    const { meeting } = await ctx.api({
      method: "POST",
      path: vcPath("/bots/join"),
      // join_type 1 = by meeting number, the only way the suite supports; the number goes in join_identify.
      body: {
        join_type: 1,
        join_identify: { meeting_no: number },
        ...(ctx.flags.password ? { password: ctx.flags.password } : {}),
        ...(ctx.flags["call-id"] ? { call_id: ctx.flags["call-id"] } : {}),
      },
      response: z.object({ meeting: z.optional(Meeting) }),
      planned: { meeting: { meeting_id: "<meeting_id>" } },
    });
    await ctx.out({ meeting_number: number, meeting: meeting ?? null });
  },
});

export const meetingLeave = defineShortcut({
  service: "vc",
  command: "+meeting-leave",
  description: "Have the caller's meeting bot leave a meeting",
  examples: ["larkit vc +meeting-leave --meeting-id 6911188411934433028"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: JOIN_SCOPE, bot: JOIN_SCOPE },
  hasFormat: false,
  flags: { "meeting-id": flag.requiredString("meeting ID") },
  async run(ctx) {
    const id = token("meeting-id", ctx.flags["meeting-id"]);
    await ctx.api({
      method: "POST",
      path: vcPath("/bots/leave"),
      body: { meeting_id: id },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ meeting_id: id, left: true });
  },
});

export const meetingListActive = defineShortcut({
  service: "vc",
  command: "+meeting-list-active",
  description: "List the meetings a person is in right now (default: the caller)",
  examples: [
    "larkit vc +meeting-list-active",
    "larkit vc +meeting-list-active --user-id ou_123 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["vc:meeting.meetingevent:read"], bot: JOIN_SCOPE },
  hasFormat: true,
  columns: ["topic", "meeting_no", "meeting_id"],
  flags: { "user-id": flag.string("the person (open_id ou_\u2026; default: the caller)") },
  async run(ctx) {
    const user = ctx.flags["user-id"];
    if (user && !user.startsWith("ou_")) {
      throw errors.validation(`--user-id must be an open_id (ou_\u2026), got "${user}"`);
    }
    const { meetings } = await ctx.api({
      method: "GET",
      path: vcPath("/bots/user_active_meeting"),
      params: { user_id: user },
      response: z.object({ meetings: z.nullish(z.array(Meeting)) }),
      planned: { meetings: [] },
    });
    const list = meetings ?? [];
    await ctx.outFormat(list, { count: list.length });
  },
});

const Event = z.looseObject({ event_type: z.optional(z.string()) });

export const meetingEvents = defineShortcut({
  service: "vc",
  command: "+meeting-events",
  description: "List what happened in a meeting (joins, leaves, messages), oldest first",
  examples: [
    "larkit vc +meeting-events --meeting-id 6911188411934433028 --page-all",
    "larkit vc +meeting-events --meeting-id 6911188411934433028 --start 2026-11-23T09:00 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["vc:meeting.meetingevent:read"], bot: JOIN_SCOPE },
  hasFormat: true,
  columns: ["event_time", "event_type", "operator_id", "event_id"],
  flags: {
    "meeting-id": flag.requiredString("meeting ID"),
    start: flag.string("events from (ISO 8601, date or Unix seconds)"),
    end: flag.string("events until"),
    ...pageFlags({ default: 20, max: 100, noun: "events" }),
  },
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: vcPath("/bots/events"),
      params: {
        meeting_id: token("meeting-id", ctx.flags["meeting-id"]),
        ...optionalRange(ctx.flags.start, ctx.flags.end, ctx.timeZone),
      },
      response: itemsPage(Event),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(
      items,
      meta(items.length),
      tableOr("No events.\n", ["event_time", "event_type", "operator_id", "event_id"]),
    );
  },
});

export const meetingMessageSend = defineShortcut({
  service: "vc",
  command: "+meeting-message-send",
  description: "Post a text or a reaction emoji in a meeting's chat",
  examples: [
    'larkit vc +meeting-message-send --meeting-id 6911188411934433028 --text "Starting in 2 minutes"',
    "larkit vc +meeting-message-send --meeting-id 6911188411934433028 --msg-type reaction --emoji-type THUMBSUP",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["vc:meeting.message:write"], bot: ["vc:meeting.message:write"] },
  hasFormat: false,
  flags: {
    "meeting-id": flag.requiredString("meeting ID"),
    "msg-type": flag.choice(["text", "reaction"] as const, "what to send", { default: "text" }),
    text: flag.string("the text (with --msg-type text)"),
    "emoji-type": flag.string("the emoji (with --msg-type reaction), e.g. THUMBSUP"),
    uuid: flag.string("a key of your choosing: the suite sends a repeat with the same key once"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const type = f["msg-type"];
    if (type === "text" && !f.text) throw errors.validation("--text is required with --msg-type text");
    if (type === "reaction" && !f["emoji-type"]) {
      throw errors.validation("--emoji-type is required with --msg-type reaction");
    }
    if (type === "text" && f["emoji-type"]) {
      throw errors.validation("--emoji-type goes with --msg-type reaction");
    }
    // One `content` field carries either: the text, or the reaction's emoji key.
    const body = {
      meeting_id: token("meeting-id", f["meeting-id"]),
      msg_type: type,
      content: type === "text" ? f.text : f["emoji-type"],
      ...(f.uuid ? { uuid: f.uuid } : {}),
    };
    const sent = await ctx.api({
      method: "POST",
      path: vcPath("/bots/message"),
      body,
      response: z.looseObject({ message_id: z.optional(z.string()) }),
      planned: { message_id: "<message_id>" },
    });
    await ctx.out({ meeting_id: body.meeting_id, msg_type: type, message_id: sent.message_id ?? null });
  },
});
