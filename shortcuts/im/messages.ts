/**
 * Messages as the suite returns them, and as larkit shows them: times in RFC 3339 in the user's zone, the
 * content JSON parsed, the sender flattened to an id and a type.
 */
import * as z from "zod";
import { formatRfc3339 } from "../common/time.ts";

export const SuiteMessage = z.looseObject({
  message_id: z.string(),
  chat_id: z.optional(z.string()),
  msg_type: z.optional(z.string()),
  create_time: z.optional(z.string()),
  parent_id: z.optional(z.string()),
  root_id: z.optional(z.string()),
  thread_id: z.optional(z.string()),
  sender: z.optional(z.looseObject({ id: z.optional(z.string()), sender_type: z.optional(z.string()) })),
  body: z.optional(z.object({ content: z.string() })),
});
export type SuiteMessage = z.infer<typeof SuiteMessage>;

function parsedContent(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function shapeMessage(m: SuiteMessage, zone: string): Record<string, unknown> {
  return {
    message_id: m.message_id,
    chat_id: m.chat_id,
    msg_type: m.msg_type,
    create_time: m.create_time ? formatRfc3339(Number(m.create_time), zone) : undefined,
    ...(m.parent_id ? { parent_id: m.parent_id } : {}),
    ...(m.root_id ? { root_id: m.root_id } : {}),
    ...(m.thread_id ? { thread_id: m.thread_id } : {}),
    sender_id: m.sender?.id,
    sender_type: m.sender?.sender_type,
    content: parsedContent(m.body?.content),
  };
}

/** An image or file a message's content names: what `+messages-resources-download` fetches. */
export interface Resource {
  key: string;
  type: "image" | "file";
}

/** The resources of a message: its image, file, audio or video (and the video's cover), and a post's images. */
export function resourcesOf(message: Record<string, unknown>): Resource[] {
  const content = message.content;
  if (!content || typeof content !== "object") return [];
  const c = content as Record<string, unknown>;
  const out: Resource[] = [];
  if (typeof c.file_key === "string") out.push({ key: c.file_key, type: "file" });
  if (typeof c.image_key === "string") out.push({ key: c.image_key, type: "image" });
  if (message.msg_type === "post") {
    // A post is {locale: {content: [[{tag, image_key?}, ...], ...]}} or the same without the locale level.
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== "object") return;
      const o = v as Record<string, unknown>;
      if (o.tag === "img" && typeof o.image_key === "string") out.push({ key: o.image_key, type: "image" });
      else Object.values(o).forEach(walk);
    };
    walk(c);
  }
  return out;
}
