/** `im +chat-update`: renames a chat or changes its description. */
import { errors } from "../../cli/output/errors.ts";
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { checkId } from "./ids.ts";

export const chatUpdate = defineShortcut({
  service: "im",
  command: "+chat-update",
  description: "Change a chat's name or description",
  examples: [
    'larkit im +chat-update --chat-id oc_123 --name "Launch (done)"',
    'larkit im +chat-update --chat-id oc_123 --description "Archive of the 2026 launch"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:chat:update"], bot: ["im:chat:update"] },
  hasFormat: false,
  flags: {
    "chat-id": flag.requiredString("chat ID (oc_\u2026)"),
    name: flag.string("new name (at most 60 characters)"),
    description: flag.string("new description (at most 100 characters)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const chatId = checkId("chat-id", f["chat-id"], "oc_", "a chat ID");
    if (f.name === undefined && f.description === undefined) {
      throw errors.validation("nothing to change: give --name and/or --description");
    }
    if (f.name && [...f.name].length > 60) throw errors.validation("--name is longer than 60 characters");
    if (f.description && [...f.description].length > 100) {
      throw errors.validation("--description is longer than 100 characters");
    }
    await ctx.api({
      method: "PUT",
      path: `/open-apis/im/v1/chats/${encodeURIComponent(chatId)}`,
      params: { user_id_type: "open_id" },
      body: { name: f.name, description: f.description },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ chat_id: chatId, updated: true, name: f.name, description: f.description });
  },
});
