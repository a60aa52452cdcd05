/**
 * THE list of shortcuts. Adding one = one new file under `shortcuts/<service>/` and one line here (plus a
 * line in SERVICE_DESCRIPTIONS for a new service).
 */
import { recordUpsert } from "./base/record_upsert.ts";
import { recordsList } from "./base/records_list.ts";
import { agenda } from "./calendar/agenda.ts";
import { create as calendarCreate } from "./calendar/create.ts";
import { freebusy } from "./calendar/freebusy.ts";
import { rsvp } from "./calendar/rsvp.ts";
import {
  slashCommandCreate,
  slashCommandDelete,
  slashCommandList,
  slashCommandUpdate,
} from "./application/slash_commands.ts";
import { getUser } from "./contact/get_user.ts";
import { searchBot } from "./contact/search_bot.ts";
import { searchUser } from "./contact/search_user.ts";
import type { FlagSpecs, Shortcut } from "./declare.ts";
import { createDoc } from "./docs/create.ts";
import { fetchDoc } from "./docs/fetch.ts";
import { updateDoc } from "./docs/update.ts";
import { download as driveDownload } from "./drive/download.ts";
import { upload as driveUpload } from "./drive/upload.ts";
import { chatCreate } from "./im/chat_create.ts";
import { chatList } from "./im/chat_list.ts";
import { chatMembersList } from "./im/chat_members_list.ts";
import { chatSearch } from "./im/chat_search.ts";
import { chatUpdate } from "./im/chat_update.ts";
import {
  feedGroupList,
  feedGroupListItem,
  feedGroupQueryItem,
  feedShortcutCreate,
  feedShortcutList,
  feedShortcutRemove,
} from "./im/feed.ts";
import { flagCancel, flagCreate, flagList } from "./im/flags.ts";
import { messageReadUsers } from "./im/message_read_users.ts";
import { messagesMget } from "./im/messages_mget.ts";
import { messagesReadStatus } from "./im/messages_read_status.ts";
import { messagesResourcesDownload } from "./im/messages_resources_download.ts";
import { messagesSearch } from "./im/messages_search.ts";
import { threadsMessagesList } from "./im/threads_messages_list.ts";
import { messagesList } from "./im/messages_list.ts";
import { messagesReply } from "./im/messages_reply.ts";
import { messagesSend } from "./im/messages_send.ts";
import { subscribe as eventSubscribe } from "./event/subscribe.ts";
import { messages as mailMessages } from "./mail/messages.ts";
import { noteDetail, noteTranscript } from "./note/notes.ts";
import { send as mailSend } from "./mail/send.ts";
import { append as sheetsAppend } from "./sheets/append.ts";
import { read as sheetsRead } from "./sheets/read.ts";
import { write as sheetsWrite } from "./sheets/write.ts";
import { complete as taskComplete } from "./task/complete.ts";
import { create as taskCreate } from "./task/create.ts";
import { myTasks } from "./task/my_tasks.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  agenda,
  calendarCreate,
  freebusy,
  rsvp,
  messagesSend,
  messagesList,
  messagesReply,
  chatSearch,
  chatCreate,
  chatList,
  chatMembersList,
  chatUpdate,
  threadsMessagesList,
  messagesMget,
  messagesSearch,
  messageReadUsers,
  messagesReadStatus,
  messagesResourcesDownload,
  flagCreate,
  flagCancel,
  flagList,
  feedShortcutCreate,
  feedShortcutRemove,
  feedShortcutList,
  feedGroupList,
  feedGroupListItem,
  feedGroupQueryItem,
  createDoc,
  fetchDoc,
  updateDoc,
  driveUpload,
  driveDownload,
  sheetsRead,
  sheetsWrite,
  sheetsAppend,
  recordsList,
  recordUpsert,
  taskCreate,
  myTasks,
  taskComplete,
  searchUser,
  searchBot,
  getUser,
  slashCommandList,
  slashCommandCreate,
  slashCommandUpdate,
  slashCommandDelete,
  noteDetail,
  noteTranscript,
  mailSend,
  mailMessages,
  eventSubscribe,
];

/** Help text of services that have shortcuts (the registry's own description wins where it has one). */
export const SERVICE_DESCRIPTIONS: Record<string, string> = {
  calendar: "Calendar: agenda, events, free/busy, invitations",
  im: "Messenger: messages, chats, bookmarks and the feed",
  docs: "Docs: create, read and edit documents as markdown",
  drive: "Drive: upload and download files",
  sheets: "Sheets: read, write and append cell values",
  base: "Base: list and upsert table records",
  task: "Tasks: create, list and complete",
  contact: "Contacts: find people and bots, read profiles",
  application: "Application: the app's slash commands",
  note: "Meeting notes: details and transcripts",
  mail: "Mail: send and read messages",
};
