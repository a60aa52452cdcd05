/**
 * `im +messages-resources-download`: saves an image or file attached to a message (the key is in the
 * message's content: `image_key` / `file_key`) inside the working directory.
 */
import { defineShortcut, flag } from "../declare.ts";
import { fileNameOf } from "../drive/download.ts";
import { checkId } from "./ids.ts";

export const messagesResourcesDownload = defineShortcut({
  service: "im",
  command: "+messages-resources-download",
  description: "Download an image or file attached to a message",
  examples: [
    "larkit im +messages-resources-download --message-id om_123 --file-key file_v3_abc --type file",
    "larkit im +messages-resources-download --message-id om_123 --file-key img_v3_abc --type image --output chart.png",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:message:readonly"], bot: ["im:message:readonly"] },
  hasFormat: false,
  flags: {
    "message-id": flag.requiredString("message ID (om_\u2026)"),
    "file-key": flag.requiredString(
      "the resource's key from the message content (img_\u2026 or file_\u2026)",
    ),
    type: flag.requiredChoice(["image", "file"] as const, "resource kind (image, or file/audio/video)"),
    output: flag.string("where to save it, inside the working directory (default: the name the suite gives)"),
    overwrite: flag.boolean("replace an existing file"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = checkId("message-id", f["message-id"], "om_", "a message ID");
    const key = f["file-key"];
    const saved = await ctx.download({
      path: `/open-apis/im/v1/messages/${encodeURIComponent(id)}/resources/${encodeURIComponent(key)}`,
      params: { type: f.type },
      output: f.output,
      overwrite: f.overwrite,
      nameOf: (headers) => fileNameOf(headers.get("content-disposition")),
      fallbackName: key,
    });
    await ctx.out({ message_id: id, file_key: key, ...saved });
  },
});
