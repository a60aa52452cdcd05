/**
 * THE list of shortcuts. Adding one = one new file under `shortcuts/<service>/` and one line here (plus a
 * line in SERVICE_DESCRIPTIONS for a new service).
 */
import { agenda } from "./calendar/agenda.ts";
import { create as calendarCreate } from "./calendar/create.ts";
import { freebusy } from "./calendar/freebusy.ts";
import { rsvp } from "./calendar/rsvp.ts";
import type { FlagSpecs, Shortcut } from "./declare.ts";
import { chatSearch } from "./im/chat_search.ts";
import { messagesList } from "./im/messages_list.ts";
import { messagesReply } from "./im/messages_reply.ts";
import { messagesSend } from "./im/messages_send.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  agenda,
  calendarCreate,
  freebusy,
  rsvp,
  messagesSend,
  messagesList,
  messagesReply,
  chatSearch,
];

/** Help text of services that have shortcuts (the registry's own description wins where it has one). */
export const SERVICE_DESCRIPTIONS: Record<string, string> = {
  calendar: "Calendar: agenda, events, free/busy, invitations",
  im: "Messenger: messages and chats",
};
