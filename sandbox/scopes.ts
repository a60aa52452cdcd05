/**
 * Scopes the seeded app has enabled, per identity. Routes declare the scopes they accept; a test revokes one
 * (`emulator.revokeScopes`) to see the suite's missing-scope errors.
 */

export const READ_CALENDAR = ["calendar:calendar:readonly", "calendar:calendar.event:read"];
export const READ_FREEBUSY = [...READ_CALENDAR, "calendar:calendar.free_busy:read"];
export const WRITE_CALENDAR = [
  "calendar:calendar",
  "calendar:calendar.event:create",
  "calendar:calendar.event:update",
];
export const REPLY_EVENT = [...WRITE_CALENDAR, "calendar:calendar.event:reply"];
export const READ_CHATS = ["im:chat:readonly", "im:chat:read", "im:chat"];
export const READ_MESSAGES = [
  "im:message:readonly",
  "im:message.group_msg",
  "im:message.group_msg:get_as_user",
  "im:message.p2p_msg:get_as_user",
  "im:message.p2p_msg:readonly",
  "im:message",
];
export const SEND_AS_BOT = ["im:message:send_as_bot", "im:message"];
export const SEND_AS_USER = ["im:message.send_as_user", "im:message"];
export const IM_RESOURCE = ["im:resource", "im:message"];
export const CREATE_DOC = ["docx:document:create", "docx:document"];
export const READ_DOC = ["docx:document:readonly", "docx:document"];
export const WRITE_DOC = ["docx:document:write_only", "docx:document"];
export const DRIVE_UPLOAD = ["drive:file:upload", "drive:drive"];
export const DRIVE_DOWNLOAD = ["drive:file:download", "drive:drive"];
export const DRIVE_READ = ["drive:drive:readonly", "drive:drive"];
export const SHEETS_READ = ["sheets:spreadsheet:readonly", "sheets:spreadsheet"];
export const SHEETS_WRITE = ["sheets:spreadsheet"];
export const BASE_READ = ["bitable:app:readonly", "bitable:app"];
export const BASE_WRITE = ["bitable:app"];
export const TASK_READ = ["task:task:read", "task:task:write"];
export const TASK_WRITE = ["task:task:write"];
export const CONTACT_READ = ["contact:user.base:readonly", "contact:contact:readonly_as_app"];
export const CONTACT_ID = ["contact:user.id:readonly"];
export const USER_SEARCH = ["search:user"];
export const MAIL_SEND = ["mail:user_mailbox.message:send"];
export const MAIL_READ = ["mail:user_mailbox.message:readonly"];
export const USER_INFO: string[] = [];
/** Declared by the supplementary base v3 entries (registry/supplementary/base_v3.json), served generically. */
export const BASE_V3 = ["base:table:read", "base:table:create", "base:table:update", "base:table:delete"];
/** Chats, members and message search (im shortcuts; routes/im_chats.ts and the generic handler). */
export const IM_CHAT_MANAGE = ["im:chat:update", "im:chat.members:read", "search:message"];
/** Bookmarks, feed shortcuts and feed groups: the user's own feed, so user tokens only. */
export const IM_FEED = [
  "im:feed.flag:read",
  "im:feed.flag:write",
  "im:feed.shortcut:read",
  "im:feed.shortcut:write",
  "im:feed_group_v1:read",
];
/** Slash commands (application v7), meeting notes (vc v1), people profiles: the supplementary entries' scopes. */
export const APP_SLASH = ["application:app_slash_command:read", "application:app_slash_command:write"];
export const VC_NOTE = ["vc:note:read"];
export const CONTACT_PROFILE = ["contact:user.basic_profile:readonly", "contact:contact.base:readonly"];
/** Calendar, vc, minutes and mail shortcuts (issue 19): the scopes their supplementary entries declare. */
export const COMMS = [
  "calendar:calendar.event:delete",
  "vc:meeting.search:read",
  "vc:meeting.meetingevent:read",
  "vc:record:readonly",
  "vc:meeting.bot.join:write",
  "vc:meeting.message:write",
  "minutes:minutes.search:read",
  "minutes:minutes.basic:read",
  "minutes:minutes.artifacts:read",
  "minutes:minutes:readonly",
  "minutes:permission:apply",
];
/** Their user-only scopes (the minutes edits, the mailbox's drafts, settings and templates). */
export const COMMS_USER = [
  "minutes:minutes.upload:write",
  "minutes:minutes:update",
  "mail:user_mailbox.message:modify",
  "mail:user_mailbox:readonly",
  "mail:user_mailbox.message.address:read",
  "mail:user_mailbox.message.subject:read",
  "mail:user_mailbox.message.body:read",
  "mail:user_mailbox.rule:read",
  "mail:user_mailbox.rule:write",
];

/** Docs, wiki, drive, markdown, whiteboard and slides shortcuts (issue 20): the reference scopes they declare. */
export const DOCS_WORK = [
  "board:whiteboard:node:create",
  "board:whiteboard:node:read",
  "docs:document.comment:create",
  "docs:document.comment:read",
  "docs:document.comment:write_only",
  "docs:document.content:read",
  "docs:document.media:download",
  "docs:document.media:upload",
  "docs:document:copy",
  "docs:document:export",
  "docs:document:import",
  "docs:permission.member:apply",
  "docs:permission.member:auth",
  "docs:permission.member:create",
  "docs:permission.member:delete",
  "docs:permission.member:retrieve",
  "docs:permission.setting:read",
  "docs:secure_label:readonly",
  "docs:secure_label:write_only",
  "drive:drive.metadata:readonly",
  "search:docs:read",
  "slides:presentation:create",
  "slides:presentation:read",
  "slides:presentation:screenshot",
  "slides:presentation:update",
  "slides:presentation:write_only",
  "space:document:delete",
  "space:document:move",
  "space:document:shortcut",
  "space:folder:create",
  "wiki:member:create",
  "wiki:member:retrieve",
  "wiki:member:update",
  "wiki:node:copy",
  "wiki:node:create",
  "wiki:node:move",
  "wiki:node:read",
  "wiki:node:retrieve",
  "wiki:space:read",
  "wiki:space:retrieve",
  "wiki:space:write_only",
];

/** Sheets, base, task and okr shortcuts (issue 21): the reference scopes their calls declare. */
export const DATA_WORK = [
  "base:app:copy",
  "base:app:create",
  "base:app:read",
  "base:app:update",
  "base:block:read",
  "base:dashboard:create",
  "base:dashboard:delete",
  "base:dashboard:read",
  "base:dashboard:update",
  "base:field:create",
  "base:field:delete",
  "base:field:read",
  "base:field:update",
  "base:form:create",
  "base:form:delete",
  "base:form:read",
  "base:form:update",
  "base:history:read",
  "base:record:create",
  "base:record:delete",
  "base:record:read",
  "base:record:update",
  "base:role:create",
  "base:role:delete",
  "base:role:read",
  "base:role:update",
  "base:view:read",
  "base:view:write_only",
  "base:workflow:create",
  "base:workflow:read",
  "base:workflow:update",
  "okr:okr.content:readonly",
  "okr:okr.content:writeonly",
  "okr:okr.period:readonly",
  "okr:okr.progress.file:upload",
  "okr:okr.progress:delete",
  "okr:okr.progress:readonly",
  "okr:okr.progress:writeonly",
  "sheets:spreadsheet:create",
  "sheets:spreadsheet:read",
  "sheets:spreadsheet:write_only",
  "task:attachment:write",
  "task:comment:write",
  "task:tasklist:read",
  "task:tasklist:write",
];

const SHARED = [
  ...READ_FREEBUSY,
  ...REPLY_EVENT,
  ...READ_CHATS,
  ...READ_MESSAGES,
  ...IM_RESOURCE,
  ...CREATE_DOC,
  ...READ_DOC,
  ...WRITE_DOC,
  ...DRIVE_UPLOAD,
  ...DRIVE_DOWNLOAD,
  ...DRIVE_READ,
  ...SHEETS_READ,
  ...SHEETS_WRITE,
  ...BASE_READ,
  ...BASE_WRITE,
  ...TASK_READ,
  ...TASK_WRITE,
  ...CONTACT_READ,
  ...CONTACT_ID,
  ...BASE_V3,
  ...IM_CHAT_MANAGE,
  ...APP_SLASH,
  ...VC_NOTE,
  ...CONTACT_PROFILE,
  ...COMMS,
  ...DATA_WORK,
  ...DOCS_WORK,
];

export const DEFAULT_SCOPES: Record<"tenant" | "user", string[]> = {
  tenant: [...new Set([...SHARED, ...SEND_AS_BOT, "im:chat:create"])],
  user: [
    ...new Set([
      ...SHARED,
      ...SEND_AS_USER,
      ...USER_SEARCH,
      ...MAIL_SEND,
      ...MAIL_READ,
      "offline_access",
      ...IM_FEED,
      "im:chat:create_by_user",
      "search:bot",
      ...COMMS_USER,
    ]),
  ],
};
