/**
 * The mail shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the mail service. Every composing shortcut saves a draft unless `--confirm-send`.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { draftCreate } from "./draft_create.ts";
import { draftEdit, draftSend } from "./drafts.ts";
import { lintHtmlShortcut } from "./lint_html.ts";
import { message, thread } from "./message.ts";
import { messages } from "./messages.ts";
import { messageModify, messageTrash } from "./organize.ts";
import { declineReceipt, sendReceipt } from "./receipts.ts";
import { forward, reply, replyAll } from "./reply.ts";
import { ruleCreate, ruleDelete, ruleList, ruleReorder, ruleUpdate } from "./rules.ts";
import { send } from "./send.ts";
import { shareToChat, signature, templateCreate, templateUpdate } from "./settings.ts";
import { triage } from "./triage.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  send,
  messages,
  message,
  thread,
  triage,
  draftCreate,
  draftEdit,
  draftSend,
  reply,
  replyAll,
  forward,
  messageModify,
  messageTrash,
  sendReceipt,
  declineReceipt,
  signature,
  shareToChat,
  templateCreate,
  templateUpdate,
  lintHtmlShortcut,
  ruleList,
  ruleCreate,
  ruleUpdate,
  ruleDelete,
  ruleReorder,
];
