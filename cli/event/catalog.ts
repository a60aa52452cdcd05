/**
 * The event keys larkit knows: one-line descriptions for `event list`, payload shapes for `event schema`, and
 * the v2 envelope every event arrives in. Keys outside this list can still be consumed (the suite may send
 * any event the app subscribed to in its console); they are passed through unchecked past the envelope.
 */
import * as z from "zod";

/** The suite's event envelope (schema 2.0): a header naming the event, and the event's own body. */
export const EventEnvelopeSchema = z.looseObject({
  schema: z.optional(z.string()),
  header: z.looseObject({
    event_id: z.string().check(z.minLength(1)),
    event_type: z.string().check(z.minLength(1)),
    create_time: z.optional(z.string()),
    token: z.optional(z.string()),
    app_id: z.optional(z.string()),
    tenant_key: z.optional(z.string()),
  }),
  event: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/** A field of a payload shape: its type and what it means. Nested objects list their own fields. */
export interface FieldShape {
  type: "string" | "number" | "boolean" | "object" | "array";
  description: string;
  fields?: Record<string, FieldShape>;
}

export interface EventKey {
  key: string;
  description: string;
  /** Scope the app needs for the suite to deliver it. */
  scope: string;
  /** The shape of `event` in the envelope. */
  payload: Record<string, FieldShape>;
}

const s = (description: string): FieldShape => ({ type: "string", description });
const obj = (description: string, fields: Record<string, FieldShape>): FieldShape => ({
  type: "object",
  description,
  fields,
});
const userId = (what: string) =>
  obj(what, { open_id: s("open_id"), union_id: s("union_id"), user_id: s("user_id (tenant-internal id)") });

const MESSAGE = obj("the message", {
  message_id: s("message id (om_\u2026)"),
  root_id: s("root message of the thread, when a reply"),
  parent_id: s("message replied to, when a reply"),
  create_time: s("milliseconds since the epoch"),
  update_time: s("milliseconds since the epoch"),
  chat_id: s("chat id (oc_\u2026)"),
  thread_id: s("thread id, when in a thread"),
  chat_type: s("p2p or group"),
  message_type: s("text, post, image, file, interactive, \u2026"),
  content: s('the content as a JSON string, e.g. {"text":"hi"}'),
  mentions: { type: "array", description: "users and bots mentioned" },
});

const REACTION = {
  message_id: s("message reacted to"),
  reaction_type: obj("the reaction", { emoji_type: s("emoji name, e.g. THUMBSUP") }),
  operator_type: s("user or app"),
  user_id: userId("who reacted"),
  action_time: s("milliseconds since the epoch"),
};

const CHAT_MEMBERS = {
  chat_id: s("chat id"),
  operator_id: userId("who changed the membership"),
  name: s("chat name"),
  users: {
    type: "array",
    description: "the users added or removed: {name, user_id:{open_id,\u2026}}",
  } as FieldShape,
};

const USER = obj("the user", {
  open_id: s("open_id"),
  union_id: s("union_id"),
  user_id: s("user_id"),
  name: s("name"),
  email: s("email"),
  department_ids: { type: "array", description: "departments" },
});

const APPROVAL_STATUS = {
  approval_code: s("approval definition code"),
  instance_code: s("approval instance code"),
  status: s("PENDING, APPROVED, REJECTED, CANCELED or DELETED"),
  operate_time: s("milliseconds since the epoch"),
};

export const EVENT_KEYS: EventKey[] = [
  {
    key: "im.message.receive_v1",
    description: "a message was sent to a chat the bot is in (or to the bot directly)",
    scope: "im:message.group_msg or im:message.p2p_msg:readonly",
    payload: {
      sender: obj("who sent it", { sender_id: userId("sender"), sender_type: s("user") }),
      message: MESSAGE,
    },
  },
  {
    key: "im.message.reaction.created_v1",
    description: "a reaction was added to a message",
    scope: "im:message.reactions:read",
    payload: REACTION,
  },
  {
    key: "im.message.reaction.deleted_v1",
    description: "a reaction was removed from a message",
    scope: "im:message.reactions:read",
    payload: REACTION,
  },
  {
    key: "im.chat.member.user.added_v1",
    description: "users joined a chat the bot is in",
    scope: "im:chat.members:read",
    payload: CHAT_MEMBERS,
  },
  {
    key: "im.chat.member.user.deleted_v1",
    description: "users left or were removed from a chat the bot is in",
    scope: "im:chat.members:read",
    payload: CHAT_MEMBERS,
  },
  {
    key: "im.chat.updated_v1",
    description: "a chat's name, description, owner or settings changed",
    scope: "im:chat:readonly",
    payload: {
      chat_id: s("chat id"),
      operator_id: userId("who changed it"),
      before_change: { type: "object", description: "the changed fields before" },
      after_change: { type: "object", description: "the changed fields after" },
    },
  },
  {
    key: "calendar.calendar.event.changed_v4",
    description: "an event was created, changed or deleted in a calendar the app subscribed to",
    scope: "calendar:calendar:readonly",
    payload: {
      calendar_id: s("calendar id"),
      user_id_list: { type: "array", description: "users whose view of the calendar changed" },
    },
  },
  {
    key: "drive.file.edit_v1",
    description: "a subscribed document or file was edited",
    scope: "drive:drive:readonly",
    payload: {
      file_token: s("file or document token"),
      file_type: s("doc, docx, sheet, bitable, file"),
      operator_id_list: { type: "array", description: "who edited" },
      subscriber_id_list: { type: "array", description: "who subscribed" },
    },
  },
  {
    key: "task.task.updated_v1",
    description: "a task the app can see was created, changed, completed or deleted",
    scope: "task:task:read",
    payload: {
      task_id: s("task guid"),
      obj_type: s("what changed: 1 task, 2 collaborators, 3 followers, \u2026"),
    },
  },
  {
    key: "contact.user.created_v3",
    description: "a user joined the tenant",
    scope: "contact:user.base:readonly",
    payload: { object: USER },
  },
  {
    key: "contact.user.updated_v3",
    description: "a user's profile changed",
    scope: "contact:user.base:readonly",
    payload: { object: USER, old_object: obj("the changed fields before", {}) },
  },
  {
    key: "approval.instance.status_changed",
    description: "an approval instance changed status (approved, rejected, canceled, \u2026)",
    scope: "approval:approval:readonly",
    payload: APPROVAL_STATUS,
  },
];

export function eventKey(key: string): EventKey | undefined {
  return EVENT_KEYS.find((k) => k.key === key);
}

/**
 * The value at a dotted path inside `event` (e.g. `message.chat_id`), as a string for `--param` matching;
 * undefined when absent or not a scalar.
 */
export function valueAt(event: Record<string, unknown>, path: string): string | undefined {
  let cur: unknown = event;
  for (const part of path.split(".")) {
    if (!cur || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === "string" || typeof cur === "number" || typeof cur === "boolean"
    ? String(cur)
    : undefined;
}

/** A subscription's filter: one of the keys (all when empty), the type pattern, and every param equal. */
export interface EventFilter {
  keys: string[];
  params: Record<string, string>;
  /** The event type must match it too. */
  pattern?: RegExp;
}

export function matches(filter: EventFilter, e: EventEnvelope): boolean {
  if (filter.keys.length > 0 && !filter.keys.includes(e.header.event_type)) return false;
  if (filter.pattern && !filter.pattern.test(e.header.event_type)) return false;
  return Object.entries(filter.params).every(([k, v]) => valueAt(e.event, k) === v);
}
