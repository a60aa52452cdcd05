/**
 * The im shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the im service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { chatCreate } from "./chat_create.ts";
import { chatList } from "./chat_list.ts";
import { chatMembersList } from "./chat_members_list.ts";
import { chatSearch } from "./chat_search.ts";
import { chatUpdate } from "./chat_update.ts";
import {
  feedGroupList,
  feedGroupListItem,
  feedGroupQueryItem,
  feedShortcutCreate,
  feedShortcutList,
  feedShortcutRemove,
} from "./feed.ts";
import { flagCancel, flagCreate, flagList } from "./flags.ts";
import { messageReadUsers } from "./message_read_users.ts";
import { messagesList } from "./messages_list.ts";
import { messagesMget } from "./messages_mget.ts";
import { messagesReadStatus } from "./messages_read_status.ts";
import { messagesReply } from "./messages_reply.ts";
import { messagesResourcesDownload } from "./messages_resources_download.ts";
import { messagesSearch } from "./messages_search.ts";
import { messagesSend } from "./messages_send.ts";
import { threadsMessagesList } from "./threads_messages_list.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
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
];
