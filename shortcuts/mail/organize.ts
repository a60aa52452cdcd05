/**
 * `mail +message-modify` (labels, folder moves) and `mail +message-trash` (to the trash; asks first): message
 * IDs in batches of 20, one request per batch, in order.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { tokenList } from "../vc/common.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";

const BATCH = 20;

export function batchesOf<T>(list: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const list = (v: string | undefined) => v?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];

export const messageModify = defineShortcut({
  service: "mail",
  command: "+message-modify",
  description: "Add or remove labels of messages, or move them to a folder (user identity only)",
  examples: [
    "larkit mail +message-modify --message-ids mail_1,mail_2 --add-folder ARCHIVE",
    "larkit mail +message-modify --message-ids mail_1 --add-label-ids IMPORTANT --remove-label-ids UNREAD",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:modify"] },
  hasFormat: false,
  flags: {
    "message-ids": flag.requiredString("message IDs, comma-separated (any number; sent 20 at a time)"),
    "add-label-ids": flag.string("labels to add, comma-separated"),
    "remove-label-ids": flag.string("labels to remove, comma-separated"),
    "add-folder": flag.string("folder to move the messages to"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const ids = tokenList("message-ids", f["message-ids"], 1000);
    const change = {
      ...(f["add-label-ids"] ? { add_label_ids: list(f["add-label-ids"]) } : {}),
      ...(f["remove-label-ids"] ? { remove_label_ids: list(f["remove-label-ids"]) } : {}),
      ...(f["add-folder"] ? { add_folder: f["add-folder"] } : {}),
    };
    if (Object.keys(change).length === 0) {
      throw errors.validation("nothing to change", {
        hint: "give --add-label-ids, --remove-label-ids or --add-folder",
      });
    }
    for (const batch of batchesOf(ids)) {
      await ctx.api({
        method: "POST",
        path: messagesPath(f.mailbox, "/batch_modify"),
        body: { message_ids: batch, ...change },
        description: "once per 20 messages",
        response: z.unknown(),
        planned: {},
      });
    }
    await ctx.out({ modified: ids.length, ...change });
  },
});

export const messageTrash = defineShortcut({
  service: "mail",
  command: "+message-trash",
  description: "Move messages to the trash (asks for confirmation; user identity only)",
  examples: [
    "larkit mail +message-trash --message-ids mail_1,mail_2 --dry-run",
    "larkit mail +message-trash --message-ids mail_1 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:modify"] },
  hasFormat: false,
  flags: {
    "message-ids": flag.requiredString("message IDs, comma-separated (sent 20 at a time)"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const ids = tokenList("message-ids", ctx.flags["message-ids"], 1000);
    for (const batch of batchesOf(ids)) {
      await ctx.api({
        method: "POST",
        path: messagesPath(ctx.flags.mailbox, "/batch_trash"),
        body: { message_ids: batch },
        description: "once per 20 messages",
        response: z.unknown(),
        planned: {},
      });
    }
    await ctx.out({ trashed: ids.length, message_ids: ids });
  },
});
