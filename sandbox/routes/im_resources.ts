/**
 * IM downloads: a message's resource (`messages/:message_id/resources/:file_key`), and the images and files
 * the app uploaded (`images/:image_key`, `files/:file_key`). Each serves the bytes stored at upload, streamed
 * from the file store, and only for a key the suite would hand out: a resource must be referred to by the
 * message (its `image_key`/`file_key`, or an image inside a post), and the caller must be in its chat.
 */
import * as z from "zod";
import { one } from "../db.ts";
import { attachment, raise, type Reply } from "../reply.ts";
import { type CallerCtx, queryOf, type Route } from "../router.ts";
import { IM_RESOURCE, READ_MESSAGES } from "../scopes.ts";

interface BlobRow {
  key: string;
  kind: string;
  name: string;
}

/** Every resource key a message's content refers to (media keys, and images and media inside a post). */
function keysIn(content: string): Set<string> {
  const keys = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== "object") return;
    for (const [k, x] of Object.entries(v)) {
      if ((k === "image_key" || k === "file_key") && typeof x === "string") keys.add(x);
      else walk(x);
    }
  };
  try {
    walk(JSON.parse(content));
  } catch {
    // Stored content is checked JSON; a row that is not refers to nothing.
  }
  return keys;
}

async function serve(ctx: CallerCtx, blob: BlobRow): Promise<Reply> {
  const stored = await ctx.st.files.open(blob.key) ??
    raise(500, 234001, `internal error: the bytes of ${blob.key} are missing`);
  return attachment(stored, blob.name || blob.key);
}

function messageResource(ctx: CallerCtx): Promise<Reply> {
  const { type } = queryOf(ctx, z.looseObject({ type: z.enum(["image", "file"]) }));
  const m = one<{ chat_id: string; content: string }>(
    ctx.st.db,
    "SELECT chat_id, content FROM messages WHERE message_id = ?",
    ctx.params.message_id,
  ) ?? raise(400, 230011, `The message was not found: ${ctx.params.message_id}`);
  if (
    !one(
      ctx.st.db,
      "SELECT 1 AS x FROM chat_members WHERE chat_id = ? AND member_id = ?",
      m.chat_id,
      ctx.caller.openId,
    )
  ) {
    raise(
      400,
      230002,
      ctx.caller.kind === "tenant" ? "Bot can NOT be out of the chat." : "User can NOT be out of the chat.",
    );
  }
  const key = ctx.params.file_key;
  if (!keysIn(m.content).has(key)) raise(400, 234003, "File not in msg.");
  const blob = one<BlobRow>(
    ctx.st.db,
    "SELECT key, kind, name FROM blobs WHERE key = ? AND kind = ?",
    key,
    type === "image" ? "image" : "im_file",
  ) ?? raise(400, 234003, `File not in msg: ${key} is not a ${type} resource.`);
  return serve(ctx, blob);
}

/** An uploaded image or file, downloadable by the app that uploaded it. */
function uploaded(ctx: CallerCtx, kind: "image" | "im_file", key: string): Promise<Reply> {
  const blob =
    one<BlobRow>(ctx.st.db, "SELECT key, kind, name FROM blobs WHERE key = ? AND kind = ?", key, kind) ??
      raise(400, 234003, `The resource was not found: ${key}`);
  return serve(ctx, blob);
}

export const imResourceRoutes: Route[] = [
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/resources/:file_key",
    auth: "token",
    scopes: READ_MESSAGES,
    handle: messageResource,
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/images/:image_key",
    auth: "token",
    scopes: IM_RESOURCE,
    handle: (ctx) => uploaded(ctx, "image", ctx.params.image_key),
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/files/:file_key",
    auth: "token",
    scopes: IM_RESOURCE,
    handle: (ctx) => uploaded(ctx, "im_file", ctx.params.file_key),
  },
];
