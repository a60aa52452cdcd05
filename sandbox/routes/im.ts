/**
 * IM v1: chats (list, search), messages (send, list, get, reply) with `uuid` de-duplication, and the image and
 * file uploads that media messages refer to. A bot speaks as the app (`sender_type: "app"`), a user as itself.
 */
import * as z from "zod";
import type { Caller } from "../auth.ts";
import { all, newId, one, run, tx } from "../db.ts";
import { TENANT_KEY } from "../fixtures.ts";
import { pageBody, pageOf, paginate } from "../paging.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, multipartBody, queryOf, type Route } from "../router.ts";
import { IM_RESOURCE, READ_CHATS, READ_MESSAGES, SEND_AS_BOT, SEND_AS_USER } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";
import { imResourceRoutes } from "./im_resources.ts";

/** The suite returns the first message again for a repeated `uuid` within this window. */
export const UUID_WINDOW_MS = 3_600_000;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_FILE_BYTES = 30 * 1024 * 1024;

const MSG_TYPES = [
  "text",
  "post",
  "image",
  "file",
  "audio",
  "media",
  "sticker",
  "interactive",
  "share_chat",
  "share_user",
] as const;

/** A row of `chats`, which the message routes and the chat routes (`im_chats.ts`) both read. */
export interface ChatRow {
  chat_id: string;
  name: string;
  description: string;
  owner_id: string;
  chat_mode: string;
  external: number;
}

interface MessageRow {
  message_id: string;
  chat_id: string;
  msg_type: string;
  content: string;
  sender_id: string;
  sender_type: string;
  create_time: number;
  root_id: string | null;
  parent_id: string | null;
  uuid: string | null;
}

function chatJson(c: ChatRow) {
  return {
    chat_id: c.chat_id,
    avatar: `https://sandbox.invalid/avatar/${c.chat_id}.png`,
    name: c.name,
    description: c.description,
    owner_id: c.owner_id,
    owner_id_type: "open_id",
    external: c.external === 1,
    tenant_key: TENANT_KEY,
    chat_status: "normal",
  };
}

/** A thread is named after its root message: `omt_` + the root's id without `om_`. */
const threadIdOf = (rootId: string) => `omt_${rootId.slice(3)}`;

function messageJson(st: EmulatorState, m: MessageRow) {
  const isApp = m.sender_type === "app";
  const hasReplies = !m.root_id &&
    !!one(st.db, "SELECT 1 AS x FROM messages WHERE root_id = ?", m.message_id);
  return {
    message_id: m.message_id,
    ...(m.root_id ? { root_id: m.root_id, thread_id: threadIdOf(m.root_id) } : {}),
    ...(hasReplies ? { thread_id: threadIdOf(m.message_id) } : {}),
    ...(m.parent_id ? { parent_id: m.parent_id, upper_message_id: m.parent_id } : {}),
    msg_type: m.msg_type,
    create_time: String(m.create_time),
    update_time: String(m.create_time),
    deleted: false,
    updated: false,
    chat_id: m.chat_id,
    sender: {
      id: isApp ? st.app.appId : m.sender_id,
      id_type: isApp ? "app_id" : "open_id",
      sender_type: m.sender_type,
      tenant_key: TENANT_KEY,
    },
    body: { content: m.content },
    mentions: [],
  };
}

function isMember(st: EmulatorState, chatId: string, member: string): boolean {
  return one(st.db, "SELECT 1 AS x FROM chat_members WHERE chat_id = ? AND member_id = ?", chatId, member) !==
    undefined;
}

function chatOrFail(st: EmulatorState, chatId: string, caller: Caller): ChatRow {
  const chat = one<ChatRow>(st.db, "SELECT * FROM chats WHERE chat_id = ?", chatId);
  if (!chat) {
    raise(400, 230001, `Your request contains an invalid request parameter: chat ${chatId} does not exist.`);
  }
  if (!isMember(st, chatId, caller.openId)) {
    raise(
      400,
      230002,
      caller.kind === "tenant" ? "Bot can NOT be out of the chat." : "User can NOT be out of the chat.",
    );
  }
  return chat;
}

/** A direct message lands in the p2p chat of the two parties, created on first use. */
function p2pChat(st: EmulatorState, caller: Caller, peer: string): string {
  const [a, b] = [caller.openId, peer].sort();
  const chatId = `oc_p2p_${a.slice(3, 15)}${b.slice(3, 15)}`;
  if (!one(st.db, "SELECT 1 AS x FROM chats WHERE chat_id = ?", chatId)) {
    run(
      st.db,
      "INSERT INTO chats (chat_id, name, description, owner_id, chat_mode, external) VALUES (?, '', '', ?, 'p2p', 0)",
      chatId,
      caller.openId,
    );
    for (const m of new Set([a, b])) {
      run(st.db, "INSERT INTO chat_members (chat_id, member_id) VALUES (?, ?)", chatId, m);
    }
  }
  return chatId;
}

function receiverChat(ctx: CallerCtx, idType: string, receiveId: string): string {
  if (idType === "chat_id") return chatOrFail(ctx.st, receiveId, ctx.caller).chat_id;
  const column = idType === "email"
    ? "email"
    : idType === "open_id"
    ? "open_id"
    : idType === "union_id"
    ? "union_id"
    : "user_id";
  const user = one<{ open_id: string }>(
    ctx.st.db,
    `SELECT open_id FROM users WHERE ${column} = ?`,
    receiveId,
  );
  if (!user) {
    raise(
      400,
      230001,
      `Your request contains an invalid request parameter: receive_id ${receiveId} not found.`,
    );
  }
  return p2pChat(ctx.st, ctx.caller, user.open_id);
}

const MessageBody = z.object({
  msg_type: z.enum(MSG_TYPES),
  content: z.string().check(z.minLength(1)),
  uuid: z.optional(z.string().check(z.maxLength(50))),
});

/** Content is a JSON string whose shape depends on msg_type; media keys must have been uploaded. */
function checkContent(st: EmulatorState, msgType: string, content: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    raise(400, 230001, "Your request contains an invalid request parameter: content is not valid JSON.");
  }
  const c = (parsed ?? {}) as Record<string, unknown>;
  const need = (field: string) => {
    if (typeof c[field] !== "string" || c[field] === "") {
      raise(
        400,
        230001,
        `Your request contains an invalid request parameter: content.${field} is required for ${msgType}.`,
      );
    }
    return c[field] as string;
  };
  if (msgType === "text") need("text");
  if (
    msgType === "image" &&
    !one(st.db, "SELECT 1 AS x FROM blobs WHERE key = ? AND kind = 'image'", need("image_key"))
  ) {
    raise(400, 230001, "Your request contains an invalid request parameter: unknown image_key.");
  }
  if (
    (msgType === "file" || msgType === "audio" || msgType === "media") &&
    !one(st.db, "SELECT 1 AS x FROM blobs WHERE key = ? AND kind = 'im_file'", need("file_key"))
  ) {
    raise(400, 230001, "Your request contains an invalid request parameter: unknown file_key.");
  }
}

function storeMessage(
  ctx: CallerCtx,
  chatId: string,
  body: z.infer<typeof MessageBody>,
  parent?: MessageRow,
): MessageRow {
  const st = ctx.st;
  return tx(st.db, () => {
    if (body.uuid) {
      const first = one<MessageRow>(
        st.db,
        "SELECT * FROM messages WHERE uuid = ? AND sender_id = ? AND create_time > ? ORDER BY create_time LIMIT 1",
        body.uuid,
        ctx.caller.openId,
        st.clock.now() - UUID_WINDOW_MS,
      );
      if (first) return first;
    }
    const row: MessageRow = {
      message_id: newId(st.db, "om_", 32),
      chat_id: chatId,
      msg_type: body.msg_type,
      content: body.content,
      sender_id: ctx.caller.openId,
      sender_type: ctx.caller.kind === "tenant" ? "app" : "user",
      create_time: st.clock.now(),
      root_id: parent ? parent.root_id ?? parent.message_id : null,
      parent_id: parent?.message_id ?? null,
      uuid: body.uuid ?? null,
    };
    run(
      st.db,
      `INSERT INTO messages (message_id, chat_id, msg_type, content, sender_id, sender_type, create_time, root_id,
         parent_id, uuid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.message_id,
      row.chat_id,
      row.msg_type,
      row.content,
      row.sender_id,
      row.sender_type,
      row.create_time,
      row.root_id,
      row.parent_id,
      row.uuid,
    );
    return row;
  });
}

function messageOrFail(ctx: CallerCtx): MessageRow {
  const m = one<MessageRow>(ctx.st.db, "SELECT * FROM messages WHERE message_id = ?", ctx.params.message_id);
  if (!m) raise(400, 230011, `The message was not found: ${ctx.params.message_id}`);
  return m;
}

const SEND_SCOPES = { tenant: SEND_AS_BOT, user: SEND_AS_USER };

async function upload(ctx: CallerCtx, kind: "image" | "im_file") {
  const form = await multipartBody(ctx);
  const file = form.get(kind === "image" ? "image" : "file");
  if (!(file instanceof File)) invalidParam(`${kind === "image" ? "image" : "file"} is required`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length === 0) raise(400, kind === "image" ? 234006 : 234010, "The file is empty.");
  if (bytes.length > (kind === "image" ? MAX_IMAGE_BYTES : MAX_FILE_BYTES)) {
    raise(400, kind === "image" ? 234006 : 234010, "The file is too large.");
  }
  const typeField = String(form.get(kind === "image" ? "image_type" : "file_type") ?? "");
  if (!typeField) invalidParam(kind === "image" ? "image_type is required" : "file_type is required");
  const key = newId(ctx.st.db, kind === "image" ? "img_v3_" : "file_v3_", 24);
  ctx.st.files.put(key, bytes);
  run(
    ctx.st.db,
    "INSERT INTO blobs (key, kind, name, file_type, size, owner, parent, create_time) VALUES (?, ?, ?, ?, ?, ?, '', ?)",
    key,
    kind,
    String(form.get("file_name") ?? file.name ?? ""),
    typeField,
    bytes.length,
    ctx.caller.openId,
    ctx.st.clock.now(),
  );
  return ok(kind === "image" ? { image_key: key } : { file_key: key });
}

export const imRoutes: Route[] = [
  {
    method: "GET",
    path: "/open-apis/im/v1/chats",
    auth: "token",
    scopes: READ_CHATS,
    handle(ctx) {
      const rows = all<ChatRow>(
        ctx.st.db,
        `SELECT c.* FROM chats c JOIN chat_members m ON m.chat_id = c.chat_id
         WHERE m.member_id = ? AND c.chat_mode = 'group' ORDER BY c.chat_id`,
        ctx.caller.openId,
      );
      return ok(paginate(rows.map(chatJson), pageOf(ctx.query, { size: 20, max: 100 })));
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/chats/search",
    auth: "token",
    scopes: READ_CHATS,
    handle(ctx) {
      const q = (ctx.query.get("query") ?? "").toLowerCase();
      const rows = all<ChatRow>(
        ctx.st.db,
        `SELECT c.* FROM chats c JOIN chat_members m ON m.chat_id = c.chat_id
         WHERE m.member_id = ? AND c.chat_mode = 'group' ORDER BY c.chat_id`,
        ctx.caller.openId,
      ).filter((c) => !q || c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q));
      return ok(paginate(rows.map(chatJson), pageOf(ctx.query, { size: 20, max: 100 })));
    },
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages",
    auth: "token",
    scopes: SEND_SCOPES,
    handle(ctx) {
      const { receive_id_type } = queryOf(
        ctx,
        z.looseObject({ receive_id_type: z.enum(["chat_id", "open_id", "user_id", "union_id", "email"]) }),
      );
      const body = jsonBody(ctx, z.extend(MessageBody, { receive_id: z.string().check(z.minLength(1)) }));
      checkContent(ctx.st, body.msg_type, body.content);
      const chatId = receiverChat(ctx, receive_id_type, body.receive_id);
      return ok(messageJson(ctx.st, storeMessage(ctx, chatId, body)));
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages",
    auth: "token",
    scopes: READ_MESSAGES,
    handle(ctx) {
      const q = queryOf(
        ctx,
        z.looseObject({
          container_id_type: z.enum(["chat", "thread"]),
          container_id: z.string().check(z.minLength(1)),
          start_time: z.optional(z.string().check(z.regex(/^\d+$/))),
          end_time: z.optional(z.string().check(z.regex(/^\d+$/))),
          sort_type: z._default(z.enum(["ByCreateTimeAsc", "ByCreateTimeDesc"]), "ByCreateTimeAsc"),
        }),
      );
      // A thread is its root message and the replies under it, in the root's chat.
      const root = q.container_id_type === "thread"
        ? one<MessageRow>(
          ctx.st.db,
          "SELECT * FROM messages WHERE ? = 'omt_' || substr(message_id, 4)",
          q.container_id,
        )
        : undefined;
      if (q.container_id_type === "thread" && !root) {
        raise(
          400,
          230001,
          `Your request contains an invalid request parameter: thread ${q.container_id} not found.`,
        );
      }
      chatOrFail(ctx.st, root ? root.chat_id : q.container_id, ctx.caller);
      // The page is cut in SQL: reading a long chat whole for every page made paging through it quadratic.
      const page = pageOf(ctx.query, { size: 20, max: 50 });
      const where = root
        ? "FROM messages WHERE (message_id = ? OR root_id = ?) AND create_time >= ? AND create_time <= ?"
        : "FROM messages WHERE chat_id = ? AND create_time >= ? AND create_time <= ?";
      const range = [
        ...(root ? [root.message_id, root.message_id] : [q.container_id]),
        q.start_time ? Number(q.start_time) * 1000 : 0,
        q.end_time ? Number(q.end_time) * 1000 + 999 : Number.MAX_SAFE_INTEGER,
      ];
      const order = q.sort_type === "ByCreateTimeDesc" ? "DESC" : "ASC";
      const total = one<{ n: number }>(ctx.st.db, `SELECT COUNT(*) AS n ${where}`, ...range)?.n ?? 0;
      const rows = all<MessageRow>(
        ctx.st.db,
        `SELECT * ${where} ORDER BY create_time ${order}, message_id LIMIT ? OFFSET ?`,
        ...range,
        page.size,
        page.offset,
      );
      return ok(pageBody(rows.map((m) => messageJson(ctx.st, m)), page, total));
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id",
    auth: "token",
    scopes: READ_MESSAGES,
    handle(ctx) {
      const m = messageOrFail(ctx);
      chatOrFail(ctx.st, m.chat_id, ctx.caller);
      return ok({ items: [messageJson(ctx.st, m)] });
    },
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/:message_id/reply",
    auth: "token",
    scopes: SEND_SCOPES,
    handle(ctx) {
      const parent = messageOrFail(ctx);
      chatOrFail(ctx.st, parent.chat_id, ctx.caller);
      const body = jsonBody(ctx, z.extend(MessageBody, { reply_in_thread: z.optional(z.boolean()) }));
      checkContent(ctx.st, body.msg_type, body.content);
      return ok(messageJson(ctx.st, storeMessage(ctx, parent.chat_id, body, parent)));
    },
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/images",
    auth: "token",
    scopes: IM_RESOURCE,
    handle: (ctx) => upload(ctx, "image"),
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/files",
    auth: "token",
    scopes: IM_RESOURCE,
    handle: (ctx) => upload(ctx, "im_file"),
  },
  ...imResourceRoutes,
];
