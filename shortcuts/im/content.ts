/**
 * Message content for `+messages-send` and `+messages-reply`: exactly one of `--text`, `--markdown`
 * (sent as a `post` with one markdown paragraph per blank-line-separated block), `--content` (raw JSON for
 * `--msg-type`), `--image` or `--file` (an uploaded key, or a local path that is uploaded first).
 */
import { extname } from "node:path";
import { z } from "zod";
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
  image: flag.string("image: an image_key (img_…) or a local image path, uploaded first", {
    placeholder: "path",
  }),
  file: flag.string("file: a file_key (file_…) or a local file path, uploaded first", {
    placeholder: "path",
  }),
};

type ContentFlags = FlagValues<typeof contentFlags>;

/** What to send: ready content, or a local file to upload whose key completes the content. */
export type MessageSource =
  | { kind: "inline"; msgType: string; content: string }
  | { kind: "upload"; media: "image" | "file"; path: string };

/** Markdown as a post: each blank-line-separated block is one `md` paragraph. */
export function markdownPost(markdown: string): string {
  const blocks = markdown.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return JSON.stringify({ zh_cn: { content: blocks.map((text) => [{ tag: "md", text }]) } });
}

/** Which content flag was given and what it means; a `validation` error unless exactly one was. */
export function messageSourceOf(f: ContentFlags): MessageSource {
  const given = (["text", "markdown", "content", "image", "file"] as const).filter((k) => f[k] !== undefined);
  if (given.length === 0) {
    throw errors.validation("specify the message: --text, --markdown, --content <json>, --image or --file", {
      hint: 'e.g. --text "hello"',
    });
  }
  if (given.length > 1) {
    throw errors.validation(`${given.map((g) => `--${g}`).join(", ")} cannot be combined: give exactly one`);
  }
  const which = given[0];
  const inferred = which === "markdown" ? "post" : which === "content" ? f["msg-type"] : which;
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
    case "image": {
      const image = f.image ?? "";
      return image.startsWith("img_")
        ? { kind: "inline", msgType: "image", content: JSON.stringify({ image_key: image }) }
        : { kind: "upload", media: "image", path: image };
    }
    case "file": {
      const file = f.file ?? "";
      return file.startsWith("file_")
        ? { kind: "inline", msgType: "file", content: JSON.stringify({ file_key: file }) }
        : { kind: "upload", media: "file", path: file };
    }
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

function contentFor(media: "image" | "file", key: string): string {
  return JSON.stringify(media === "image" ? { image_key: key } : { file_key: key });
}

const UPLOAD = { image: "/open-apis/im/v1/images", file: "/open-apis/im/v1/files" };

const Uploaded = z.object({ image_key: z.string().optional(), file_key: z.string().optional() });

/** msg_type and content to send, uploading a local file first when the source is a path. */
export async function resolveContent<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  source: MessageSource,
): Promise<{ msg_type: string; content: string }> {
  if (source.kind === "inline") return { msg_type: source.msgType, content: source.content };
  const name = source.path.split(/[\\/]/).pop() ?? "upload";
  const keyName = source.media === "image" ? "image_key" : "file_key";
  const uploaded = await ctx.upload({
    path: UPLOAD[source.media],
    fields: source.media === "image"
      ? { image_type: "message" }
      : { file_type: fileTypeOf(name), file_name: name },
    file: {
      field: source.media,
      path: source.path,
      flag: source.media,
      maxBytes: source.media === "image" ? MAX_IMAGE_BYTES : MAX_FILE_BYTES,
    },
    description: `upload the ${source.media}`,
    response: Uploaded,
    planned: { [keyName]: `<${keyName}>` },
  });
  const key = uploaded[keyName];
  if (!key) throw errors.api(`the ${source.media} upload returned no key`);
  return { msg_type: source.media, content: contentFor(source.media, key) };
}
