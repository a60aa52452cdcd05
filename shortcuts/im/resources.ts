/**
 * `--download-resources` on the message-reading shortcuts: every image and file the listed messages name is
 * saved in the working directory as `<key>-<name the suite gives>` (keys are unique, so names never collide),
 * and each message lists what was saved under `resources`.
 */
import { flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { fileNameOf } from "../drive/download.ts";
import { resourcesOf } from "./messages.ts";

export const downloadResourcesFlag = flag.boolean(
  "also save the messages' images and files in the current directory, as <key>-<name>",
);

export async function downloadResources<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  messages: Record<string, unknown>[],
): Promise<void> {
  // The plan cannot know which resources the messages will name; it says that some will be saved.
  ctx.note({ download_resources: "each image and file of the listed messages, into the current directory" });
  for (const m of messages) {
    const saved = [];
    for (const r of resourcesOf(m)) {
      const id = encodeURIComponent(String(m.message_id));
      const file = await ctx.download({
        path: `/open-apis/im/v1/messages/${id}/resources/${encodeURIComponent(r.key)}`,
        params: { type: r.type },
        description: "save a resource of a listed message",
        overwrite: true,
        nameOf: (headers) => `${r.key}-${fileNameOf(headers.get("content-disposition")) ?? r.type}`,
        fallbackName: r.key,
      });
      saved.push({ key: r.key, type: r.type, saved_path: file.saved_path });
    }
    if (saved.length) m.resources = saved;
  }
}
