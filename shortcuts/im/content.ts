/**
 * Message content for `+messages-send` and `+messages-reply`: exactly one of `--text`, `--markdown`
 * (sent as a `post` with one markdown paragraph per blank-line-separated block), `--content` (raw JSON for
 * `--msg-type`), `--image`, `--file`, `--audio` or `--video` (with `--video-cover`): each an uploaded key, or a
 * local path that is uploaded first.
 */
import { extname } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { flag, type FlagSpecs, type FlagValues, type ShortcutContext } from "../declare.ts";

export const MSG_TYPES = [
  "text",
  "post",
  "image",
  "file",
  "audio",
  "media",
  "interactive",
  "share_chat",
  "share_user",
] as const;

/** Upload limits of the suite's IM resource APIs. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_BYTES = 30 * 1024 * 1024;

export const contentFlags = {
  text: flag.string("plain text message", { input: ["file", "stdin"] }),
  markdown: flag.string("markdown, sent as a rich-text post", { input: ["file", "stdin"] }),
  content: flag.string("raw message content JSON for --msg-type", {
    input: ["file", "stdin"],
    placeholder: "json",
  }),
  "msg-type": flag.choice(MSG_TYPES, "message type of --content (inferred for the other content flags)", {
    default: "text",
  }),
  image: flag.string("image: an image_key (img_\u2026) or a local image path, uploaded first", {
    placeholder: "path",
  }),
  file: flag.string("file: a file_key (file_\u2026) or a local file path, uploaded first", {
    placeholder: "path",
  }),
  audio: flag.string("voice message: a file_key (file_\u2026) or a local .opus path, uploaded first", {
    placeholder: "path",
  }),
  video: flag.string(
    "video: a file_key (file_\u2026) or a local .mp4 path, uploaded first (needs --video-cover)",
    {
      placeholder: "path",
    },
  ),
  "video-cover": flag.string("the video's cover image: an image_key (img_\u2026) or a local image path", {
    placeholder: "path",
  }),
};

type ContentFlags = FlagValues<typeof contentFlags>;

/** A media part: a key the suite already has, or a local file to upload for one. */
export type Part = { key: string } | { path: string };

/** What to send: ready content, or media whose local parts are uploaded first and complete the content. */
export type MessageSource =
  | { kind: "inline"; msgType: string; content: string }
  | { kind: "media"; msgType: "image" | "file" | "audio" | "media"; file?: Part; image?: Part };

/** Markdown as a post: each blank-line-separated block is one `md` paragraph. */
export function markdownPost(markdown: string): string {
  const blocks = markdown.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return JSON.stringify({ zh_cn: { content: blocks.map((text) => [{ tag: "md", text }]) } });
}

const partOf = (value: string, keyPrefix: string): Part =>
  value.startsWith(keyPrefix) ? { key: value } : { path: value };

/** A local audio or video must have the extension the suite plays (opus voice, mp4 video). */
function checkExtension(flagName: string, part: Part, ext: string): Part {
  if ("path" in part && extname(part.path).toLowerCase() !== ext) {
    throw errors.validation(`--${flagName} must be a ${ext} file or a file_key, got "${part.path}"`);
  }
  return part;
}

/** Which content flag was given and what it means; a `validation` error unless exactly one was. */
export function messageSourceOf(f: ContentFlags): MessageSource {
  const given = (["text", "markdown", "content", "image", "file", "audio", "video"] as const).filter((k) =>
    f[k] !== undefined
  );
  if (given.length === 0) {
    throw errors.validation(
      "specify the message: --text, --markdown, --content <json>, --image, --file, --audio or --video",
      { hint: 'e.g. --text "hello"' },
    );
  }
  if (given.length > 1) {
    throw errors.validation(`${given.map((g) => `--${g}`).join(", ")} cannot be combined: give exactly one`);
  }
  const which = given[0];
  if ((which === "video") !== (f["video-cover"] !== undefined)) {
    throw errors.validation(
      which === "video"
        ? "--video needs --video-cover (an image_key or an image path)"
        : "--video-cover only goes with --video",
    );
  }
  const inferred =
    ({ markdown: "post", content: f["msg-type"], video: "media" } as Record<string, string>)[which] ??
      which;
  if (which !== "content" && f["msg-type"] !== "text" && f["msg-type"] !== inferred) {
    throw errors.validation(
      `--msg-type "${f["msg-type"]}" conflicts with the message type "${inferred}" of --${which}`,
      { hint: "--msg-type only applies to --content; drop it" },
    );
  }
  switch (which) {
    case "text":
      return { kind: "inline", msgType: "text", content: JSON.stringify({ text: f.text }) };
    case "markdown":
      return { kind: "inline", msgType: "post", content: markdownPost(f.markdown ?? "") };
    case "content": {
      try {
        JSON.parse(f.content ?? "");
      } catch (e) {
        throw errors.validation(`--content is not valid JSON: ${e instanceof Error ? e.message : e}`);
      }
      return { kind: "inline", msgType: f["msg-type"], content: f.content ?? "" };
    }
    case "image":
      return { kind: "media", msgType: "image", image: partOf(f.image ?? "", "img_") };
    case "file":
      return { kind: "media", msgType: "file", file: partOf(f.file ?? "", "file_") };
    case "audio":
      return {
        kind: "media",
        msgType: "audio",
        file: checkExtension("audio", partOf(f.audio ?? "", "file_"), ".opus"),
      };
    case "video":
      return {
        kind: "media",
        msgType: "media",
        file: checkExtension("video", partOf(f.video ?? "", "file_"), ".mp4"),
        image: partOf(f["video-cover"] ?? "", "img_"),
      };
  }
}

const FILE_TYPES: Record<string, string> = {
  ".opus": "opus",
  ".mp4": "mp4",
  ".pdf": "pdf",
  ".doc": "doc",
  ".docx": "doc",
  ".xls": "xls",
  ".xlsx": "xls",
  ".ppt": "ppt",
  ".pptx": "ppt",
};

/** The suite's `file_type` for an upload, from the file name. */
export function fileTypeOf(path: string): string {
  return FILE_TYPES[extname(path).toLowerCase()] ?? "stream";
}

const UPLOAD = { image: "/open-apis/im/v1/images", file: "/open-apis/im/v1/files" };

const Uploaded = z.object({ image_key: z.optional(z.string()), file_key: z.optional(z.string()) });

/** Which flag gave a part (for errors about the local file). */
const FLAG_OF: Record<string, { file: string; image: string }> = {
  image: { file: "file", image: "image" },
  file: { file: "file", image: "image" },
  audio: { file: "audio", image: "image" },
  media: { file: "video", image: "video-cover" },
};

/** The key of a part: given, or the upload of its local file. */
async function keyOf<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  part: Part,
  kind: "image" | "file",
  flagName: string,
): Promise<string> {
  if ("key" in part) return part.key;
  const name = part.path.split(/[\\/]/).pop() ?? "upload";
  const keyName = kind === "image" ? "image_key" : "file_key";
  const uploaded = await ctx.upload({
    path: UPLOAD[kind],
    fields: kind === "image" ? { image_type: "message" } : { file_type: fileTypeOf(name), file_name: name },
    file: {
      field: kind,
      path: part.path,
      flag: flagName,
      maxBytes: kind === "image" ? MAX_IMAGE_BYTES : MAX_FILE_BYTES,
    },
    description: `upload --${flagName}`,
    response: Uploaded,
    planned: { [keyName]: `<${keyName}>` },
  });
  const key = uploaded[keyName];
  if (!key) throw errors.api(`the --${flagName} upload returned no key`);
  return key;
}

/** msg_type and content to send, uploading the local parts of a media message first. */
export async function resolveContent<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  source: MessageSource,
): Promise<{ msg_type: string; content: string }> {
  if (source.kind === "inline") return { msg_type: source.msgType, content: source.content };
  const flags = FLAG_OF[source.msgType];
  const content: Record<string, string> = {};
  if (source.file) content.file_key = await keyOf(ctx, source.file, "file", flags.file);
  if (source.image) content.image_key = await keyOf(ctx, source.image, "image", flags.image);
  return { msg_type: source.msgType, content: JSON.stringify(content) };
}
