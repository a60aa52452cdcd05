/**
 * IM beyond sending and reading: creating, reading and renaming chats (over the same `chats` tables the message
 * routes use, so a chat created here can be messaged at once), chat members, direct-chat lookup, message search, readers and read status, and
 * the user's own feed: bookmarks (flags) and feed shortcuts. Chat creation de-duplicates on the `uuid` query parameter, as the
 * suite does. Bookmarks and shortcuts are per user, kept in the generic object store under a per-user collection.
 */
import * as z from "zod";
import type { Caller } from "../auth.ts";
import { all, newId, nextCounter, one, run, tx } from "../db.ts";
import { createOnce } from "../dedup.ts";
import { TENANT_KEY } from "../fixtures.ts";
import { pageOf, paginate } from "../paging.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, queryOf, type Route } from "../router.ts";
import { READ_CHATS } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";
import type { ChatRow } from "./im.ts";

const MEMBER_WRITE = ["im:chat.members:write_only", "im:chat:operate_as_owner", "im:chat"];

function memberIds(st: EmulatorState, chatId: string): string[] {
  return all<{ member_id: string }>(
    st.db,
    "SELECT member_id FROM chat_members WHERE chat_id = ? ORDER BY rowid",
    chatId,
  ).map((r) => r.member_id);
}

/** The chat, when it exists and the caller is in it; else the suite's errors. */
function chatOf(st: EmulatorState, chatId: string, caller: Caller): ChatRow {
  const chat = one<ChatRow>(st.db, "SELECT * FROM chats WHERE chat_id = ?", chatId);
  if (!chat) raise(400, 232011, `The chat does not exist: ${chatId}`);
  if (!memberIds(st, chatId).includes(caller.openId)) {
    raise(400, 232033, "The operator or invited bots is NOT in the chat.");
  }
  return chat;
}

function chatDetail(st: EmulatorState, c: ChatRow) {
  return {
    chat_id: c.chat_id,
    name: c.name,
    description: c.description,
    owner_id: c.owner_id,
    owner_id_type: "open_id",
    chat_mode: c.chat_mode === "topic" ? "topic" : c.chat_mode === "p2p" ? "p2p" : "group",
    chat_type: "private",
    external: c.external === 1,
    tenant_key: TENANT_KEY,
    user_count: String(memberIds(st, c.chat_id).filter((m) => m.startsWith("ou_")).length),
    chat_status: "normal",
  };
}

const CreateChat = z.looseObject({
  name: z.optional(z.string().check(z.maxLength(60))),
  description: z.optional(z.string().check(z.maxLength(100))),
  chat_mode: z.optional(z.enum(["group", "topic"])),
  chat_type: z.optional(z.enum(["private", "public"])),
  owner_id: z.optional(z.string()),
  user_id_list: z.optional(z.array(z.string()).check(z.maxLength(50))),
  bot_id_list: z.optional(z.array(z.string()).check(z.maxLength(5))),
});

function createChat(ctx: CallerCtx): string {
  const body = jsonBody(ctx, CreateChat);
  const users = body.user_id_list ?? [];
  for (const u of body.owner_id ? [...users, body.owner_id] : users) {
    if (!one(ctx.st.db, "SELECT 1 AS x FROM users WHERE open_id = ?", u)) {
      raise(400, 232024, `Users do not exist: ${u}`);
    }
  }
  // Without owner_id the creator owns the chat, a bot included.
  const owner = body.owner_id ?? ctx.caller.openId;
  return tx(ctx.st.db, () => {
    const chatId = newId(ctx.st.db, "oc_", 32);
    run(
      ctx.st.db,
      "INSERT INTO chats (chat_id, name, description, owner_id, chat_mode, external) VALUES (?, ?, ?, ?, ?, 0)",
      chatId,
      body.name ?? "",
      body.description ?? "",
      owner,
      body.chat_mode === "topic" ? "topic" : "group",
    );
    for (const m of new Set([ctx.caller.openId, ...users, owner])) {
      run(ctx.st.db, "INSERT INTO chat_members (chat_id, member_id) VALUES (?, ?)", chatId, m);
    }
    return chatId;
  });
}

/** Chats the caller is in whose messages it may search, optionally narrowed to `chat_ids`. */
function searchableChats(ctx: CallerCtx, only: string[] | undefined): Map<string, string> {
  const rows = all<{ chat_id: string; chat_mode: string }>(
    ctx.st.db,
    `SELECT c.chat_id, c.chat_mode FROM chats c JOIN chat_members m ON m.chat_id = c.chat_id
     WHERE m.member_id = ?`,
    ctx.caller.openId,
  );
  return new Map(
    rows.filter((r) => !only?.length || only.includes(r.chat_id)).map((r) => [r.chat_id, r.chat_mode]),
  );
}

const Seconds = z.optional(z.string().check(z.regex(/^\d+$/)));
/** The suite's im.v1.message.search body: a keyword and a `filter`. */
const SearchBody = z.looseObject({
  query: z.optional(z.string()),
  filter: z.optional(z.looseObject({
    chat_ids: z.optional(z.array(z.string())),
    from_ids: z.optional(z.array(z.string())),
    chat_type: z.optional(z.enum(["group", "p2p"])),
    from_types: z.optional(z.array(z.enum(["user", "bot"]))),
    time_range: z.optional(z.looseObject({ start_time: Seconds, end_time: Seconds })),
  })),
});

function searchMessages(ctx: CallerCtx) {
  const { query, filter = {} } = jsonBody(ctx, SearchBody);
  const b = {
    query,
    ...filter,
    sender_type: filter.from_types?.length === 1 ? filter.from_types[0] : undefined,
    ...filter.time_range,
  };
  const chats = searchableChats(ctx, b.chat_ids);
  const q = (b.query ?? "").toLowerCase();
  const rows = all<
    {
      message_id: string;
      chat_id: string;
      content: string;
      sender_id: string;
      sender_type: string;
      create_time: number;
    }
  >(ctx.st.db, "SELECT * FROM messages ORDER BY create_time DESC, message_id").filter((m) => {
    const mode = chats.get(m.chat_id);
    if (mode === undefined) return false;
    if (b.chat_type && (b.chat_type === "p2p") !== (mode === "p2p")) return false;
    if (b.from_ids?.length && !b.from_ids.includes(m.sender_id)) return false;
    if (b.sender_type && (b.sender_type === "bot") !== (m.sender_type === "app")) return false;
    if (b.start_time && m.create_time < Number(b.start_time) * 1000) return false;
    if (b.end_time && m.create_time > Number(b.end_time) * 1000 + 999) return false;
    return !q || m.content.toLowerCase().includes(q);
  });
  const page = pageOf(ctx.query, { size: 20, max: 50 });
  return ok(paginate(rows.map((m) => ({ message_id: m.message_id, chat_id: m.chat_id })), page));
}

interface SeenRow {
  message_id: string;
  chat_id: string;
  sender_id: string;
  create_time: number;
}

/**
 * Who has read a message. The emulator keeps no read receipts, so a message counts as read by whoever wrote
 * in its chat at or after it (a reply included), besides its sender.
 */
function readersOf(st: EmulatorState, m: SeenRow): { open_id: string; at: number }[] {
  return all<{ open_id: string; at: number }>(
    st.db,
    `SELECT sender_id AS open_id, MIN(create_time) AS at FROM messages
     WHERE chat_id = ? AND create_time >= ? AND message_id != ? AND sender_id != ? AND sender_type = 'user'
     GROUP BY sender_id ORDER BY at, sender_id`,
    m.chat_id,
    m.create_time,
    m.message_id,
    m.sender_id,
  );
}

/** The message, when the caller can see it (it is in the message's chat). */
function visibleMessage(ctx: CallerCtx, id: string): SeenRow | undefined {
  const m = one<SeenRow>(
    ctx.st.db,
    "SELECT message_id, chat_id, sender_id, create_time FROM messages WHERE message_id = ?",
    id,
  );
  return m && memberIds(ctx.st, m.chat_id).includes(ctx.caller.openId) ? m : undefined;
}

function readUsers(ctx: CallerCtx) {
  const m = visibleMessage(ctx, ctx.params.message_id);
  if (!m) raise(400, 230011, `The message was not found: ${ctx.params.message_id}`);
  const type = ctx.query.get("user_id_type") ?? "open_id";
  const readers = readersOf(ctx.st, m).map((r) => {
    const u = one<{ open_id: string; union_id: string; user_id: string }>(
      ctx.st.db,
      "SELECT open_id, union_id, user_id FROM users WHERE open_id = ?",
      r.open_id,
    );
    const user_id = type === "union_id" ? u?.union_id : type === "user_id" ? u?.user_id : r.open_id;
    return {
      user_id_type: type,
      user_id: user_id ?? r.open_id,
      timestamp: String(r.at),
      tenant_key: TENANT_KEY,
    };
  });
  return ok(paginate(readers, pageOf(ctx.query, { size: 20, max: 100 })));
}

/** Whether the user has read each message (see `readersOf`); one it cannot see is invalid, as on the suite. */
function readStatus(ctx: CallerCtx) {
  userOnly(ctx.caller);
  const { message_ids } = jsonBody(
    ctx,
    z.object({ message_ids: z.array(z.string()).check(z.minLength(1), z.maxLength(50)) }),
  );
  const items: { message_id: string; is_read: boolean }[] = [];
  const invalid: string[] = [];
  for (const id of message_ids) {
    const m = visibleMessage(ctx, id);
    if (!m) {
      invalid.push(id);
      continue;
    }
    const read = m.sender_id === ctx.caller.openId ||
      readersOf(ctx.st, m).some((r) => r.open_id === ctx.caller.openId);
    items.push({ message_id: id, is_read: read });
  }
  return ok({ items, invalid_message_ids: invalid });
}

/** The one-to-one chats between the caller and each given person that already exist. */
function p2pChats(ctx: CallerCtx) {
  const { chatter_ids } = jsonBody(
    ctx,
    z.object({ chatter_ids: z.array(z.string()).check(z.minLength(1), z.maxLength(50)) }),
  );
  const p2p_chats = chatter_ids.flatMap((chatter_id) => {
    const row = one<{ chat_id: string }>(
      ctx.st.db,
      `SELECT c.chat_id FROM chats c
       JOIN chat_members a ON a.chat_id = c.chat_id AND a.member_id = ?
       JOIN chat_members b ON b.chat_id = c.chat_id AND b.member_id = ?
       WHERE c.chat_mode = 'p2p' LIMIT 1`,
      ctx.caller.openId,
      chatter_id,
    );
    return row ? [{ chat_id: row.chat_id, chatter_id }] : [];
  });
  return ok({ p2p_chats });
}

// ---- the user's feed: bookmarks and shortcuts, one generic-object collection per user ----

function userOnly(caller: Caller): void {
  if (caller.kind !== "user") {
    raise(400, 99991668, "This API accepts a user access token only; a tenant access token was sent.");
  }
}

function stored(st: EmulatorState, collection: string) {
  return all<{ id: string; body: string }>(
    st.db,
    "SELECT id, body FROM generic_objects WHERE collection = ? AND deleted = 0 ORDER BY seq",
    collection,
  ).map((r): { id: string } & Record<string, unknown> => ({ id: r.id, ...JSON.parse(r.body) }));
}

function put(st: EmulatorState, collection: string, id: string, body: unknown, seq: number, deleted = 0) {
  run(
    st.db,
    `INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body, deleted = excluded.deleted, seq = excluded.seq`,
    collection,
    id,
    JSON.stringify(body),
    deleted,
    seq,
  );
}

const FlagItem = z.object({
  item_id: z.string().check(z.minLength(1)),
  item_type: z.enum(["default", "thread", "msg_thread"]),
  flag_type: z.enum(["message", "feed"]),
});
const FlagItems = z.looseObject({ flag_items: z.array(FlagItem).check(z.minLength(1), z.maxLength(50)) });

/** A bookmark must point at a message or chat the user can see. */
function checkFlagTarget(ctx: CallerCtx, item: z.infer<typeof FlagItem>): void {
  if (item.flag_type === "message") {
    const m = one<{ chat_id: string }>(
      ctx.st.db,
      "SELECT chat_id FROM messages WHERE message_id = ?",
      item.item_id,
    );
    if (!m) raise(400, 230011, `The message was not found: ${item.item_id}`);
    chatOf(ctx.st, m.chat_id, ctx.caller);
  } else chatOf(ctx.st, item.item_id, ctx.caller);
}

const ShortcutItems = z.looseObject({
  shortcuts: z.array(z.looseObject({ chat_id: z.string().check(z.minLength(1)) })).check(
    z.minLength(1),
    z.maxLength(10),
  ),
  position: z.optional(z.enum(["head", "tail"])),
});

export const imChatRoutes: Route[] = [
  {
    method: "POST",
    path: "/open-apis/im/v1/chats",
    auth: "token",
    scopes: { tenant: ["im:chat:create", "im:chat"], user: ["im:chat:create_by_user", "im:chat"] },
    handle(ctx) {
      const { uuid } = queryOf(ctx, z.looseObject({ uuid: z.optional(z.string().check(z.maxLength(50))) }));
      const chatId = createOnce(ctx.st, `im_chat\n${ctx.caller.openId}`, uuid, () => createChat(ctx));
      const chat = one<ChatRow>(ctx.st.db, "SELECT * FROM chats WHERE chat_id = ?", chatId)!;
      return ok(chatDetail(ctx.st, chat));
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/read_users",
    auth: "token",
    scopes: ["im:message:readonly", "im:message"],
    handle: readUsers,
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/chat_p2p/batch_query",
    auth: "token",
    scopes: READ_CHATS,
    handle: p2pChats,
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/read_status",
    auth: "token",
    scopes: ["im:message:readonly"],
    handle: readStatus,
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/messages/search",
    auth: "token",
    scopes: ["search:message"],
    handle: searchMessages,
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/chats/:chat_id",
    auth: "token",
    scopes: READ_CHATS,
    handle(ctx) {
      return ok(chatDetail(ctx.st, chatOf(ctx.st, ctx.params.chat_id, ctx.caller)));
    },
  },
  {
    method: "PUT",
    path: "/open-apis/im/v1/chats/:chat_id",
    auth: "token",
    scopes: ["im:chat:update", "im:chat"],
    handle(ctx) {
      const chat = chatOf(ctx.st, ctx.params.chat_id, ctx.caller);
      const b = jsonBody(
        ctx,
        z.looseObject({
          name: z.optional(z.string().check(z.maxLength(60))),
          description: z.optional(z.string().check(z.maxLength(100))),
        }),
      );
      run(
        ctx.st.db,
        "UPDATE chats SET name = ?, description = ? WHERE chat_id = ?",
        b.name ?? chat.name,
        b.description ?? chat.description,
        chat.chat_id,
      );
      return ok({});
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    auth: "token",
    scopes: ["im:chat.members:read", ...READ_CHATS],
    handle(ctx) {
      chatOf(ctx.st, ctx.params.chat_id, ctx.caller);
      const type = ctx.query.get("member_id_type") ?? "open_id";
      const people = memberIds(ctx.st, ctx.params.chat_id).flatMap((id) => {
        const u = one<{ open_id: string; union_id: string; user_id: string; name: string }>(
          ctx.st.db,
          "SELECT open_id, union_id, user_id, name FROM users WHERE open_id = ?",
          id,
        );
        if (!u) return [];
        const member_id = type === "union_id" ? u.union_id : type === "user_id" ? u.user_id : u.open_id;
        return [{ member_id_type: type, member_id, name: u.name, tenant_key: TENANT_KEY }];
      });
      const page = paginate(people, pageOf(ctx.query, { size: 20, max: 100 }));
      return ok({ ...page, member_total: people.length });
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/flags",
    auth: "token",
    scopes: ["im:feed.flag:read"],
    handle(ctx) {
      userOnly(ctx.caller);
      const items = stored(ctx.st, `im_flags\n${ctx.caller.openId}`).map(({ id: _id, ...f }) => f);
      const page = paginate(items, pageOf(ctx.query, { size: 50, max: 50 }));
      return ok({ flag_items: page.items, has_more: page.has_more, page_token: page.page_token ?? "" });
    },
  },
  ...(["", "/cancel"] as const).map((suffix): Route => ({
    method: "POST",
    path: `/open-apis/im/v1/flags${suffix}`,
    auth: "token",
    scopes: ["im:feed.flag:write"],
    handle(ctx) {
      userOnly(ctx.caller);
      const { flag_items } = jsonBody(ctx, FlagItems);
      const collection = `im_flags\n${ctx.caller.openId}`;
      const done = flag_items.map((item) => {
        checkFlagTarget(ctx, item);
        const id = `${item.flag_type}:${item.item_id}`;
        const existing = one<{ body: string; seq: number }>(
          ctx.st.db,
          "SELECT body, seq FROM generic_objects WHERE collection = ? AND id = ? AND deleted = 0",
          collection,
          id,
        );
        if (suffix === "/cancel") {
          if (existing) put(ctx.st, collection, id, JSON.parse(existing.body), existing.seq, 1);
          return item;
        }
        // Bookmarking twice keeps the first bookmark (and its time).
        if (existing) return JSON.parse(existing.body);
        const flagged = { ...item, create_time: String(ctx.st.clock.now()) };
        put(ctx.st, collection, id, flagged, nextCounter(ctx.st.db, "generic_seq"));
        return flagged;
      });
      return ok({ flag_items: done });
    },
  })),
  {
    method: "GET",
    path: "/open-apis/im/v2/feed_shortcuts",
    auth: "token",
    scopes: ["im:feed.shortcut:read"],
    handle(ctx) {
      userOnly(ctx.caller);
      const items = stored(ctx.st, `im_feed_shortcuts\n${ctx.caller.openId}`).map(({ id: _id, ...s }) => s);
      const page = paginate(items, pageOf(ctx.query, { size: 20, max: 20 }));
      return ok({ shortcuts: page.items, has_more: page.has_more, page_token: page.page_token ?? "" });
    },
  },
  ...(["", "/remove"] as const).map((suffix): Route => ({
    method: "POST",
    path: `/open-apis/im/v2/feed_shortcuts${suffix}`,
    auth: "token",
    scopes: ["im:feed.shortcut:write"],
    handle(ctx) {
      userOnly(ctx.caller);
      const b = jsonBody(ctx, ShortcutItems);
      const collection = `im_feed_shortcuts\n${ctx.caller.openId}`;
      const failed: { chat_id: string; reason: string }[] = [];
      // Inserting at the head gives later items lower positions, so they read in the order given.
      const items = b.position === "head" ? [...b.shortcuts].reverse() : b.shortcuts;
      for (const { chat_id } of items) {
        const chat = one<ChatRow>(ctx.st.db, "SELECT * FROM chats WHERE chat_id = ?", chat_id);
        if (!chat || !memberIds(ctx.st, chat_id).includes(ctx.caller.openId)) {
          failed.push({ chat_id, reason: "chat not found or not a member" });
          continue;
        }
        const n = nextCounter(ctx.st.db, "generic_seq");
        if (suffix === "/remove") put(ctx.st, collection, chat_id, { chat_id, type: "chat" }, n, 1);
        else {
          const seq = b.position === "head" ? -n : n;
          put(ctx.st, collection, chat_id, { chat_id, type: "chat", name: chat.name }, seq);
        }
      }
      return ok({ failed_shortcuts: failed });
    },
  })),
  {
    method: "POST",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    auth: "token",
    scopes: MEMBER_WRITE,
    handle(ctx) {
      const { chat, id_list } = membersRequest(ctx);
      const found = id_list.map((id) => [id, personOf(ctx, id)] as const);
      const notExisting = found.filter(([, openId]) => !openId).map(([id]) => id);
      // succeed_type 0 (the default) and 2 refuse the whole request when an id names nobody; 1 adds the rest.
      if (notExisting.length && ctx.query.get("succeed_type") !== "1") {
        raise(400, 232024, `Users do not exist: ${notExisting.join(",")}`);
      }
      tx(ctx.st.db, () => {
        for (const [, openId] of found) {
          if (!openId) continue;
          run(
            ctx.st.db,
            "INSERT OR IGNORE INTO chat_members (chat_id, member_id) VALUES (?, ?)",
            chat.chat_id,
            openId,
          );
        }
      });
      return ok({ invalid_id_list: [], not_existed_id_list: notExisting, pending_approval_id_list: [] });
    },
  },
  {
    method: "DELETE",
    path: "/open-apis/im/v1/chats/:chat_id/members",
    auth: "token",
    scopes: MEMBER_WRITE,
    handle(ctx) {
      const { chat, id_list } = membersRequest(ctx);
      const invalid: string[] = [];
      for (const id of id_list) {
        const openId = personOf(ctx, id);
        if (!openId || !memberIds(ctx.st, chat.chat_id).includes(openId)) {
          invalid.push(id);
          continue;
        }
        run(ctx.st.db, "DELETE FROM chat_members WHERE chat_id = ? AND member_id = ?", chat.chat_id, openId);
      }
      return ok({ invalid_id_list: invalid });
    },
  },
  {
    method: "POST",
    path: "/open-apis/im/v1/pins",
    auth: "token",
    scopes: ["im:message.pins:write_only", "im:message"],
    handle(ctx) {
      const { message_id } = jsonBody(ctx, z.looseObject({ message_id: z.string() }));
      const m = messageIn(ctx, message_id);
      const pin = {
        message_id,
        chat_id: m.chat_id,
        operator_id: ctx.caller.openId,
        operator_id_type: "open_id",
        create_time: String(ctx.st.clock.now()),
      };
      put(ctx.st, PINS, message_id, pin, nextCounter(ctx.st.db, "generic_seq"));
      return ok({ pin });
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/pins",
    auth: "token",
    scopes: ["im:message.pins:read", "im:message"],
    handle(ctx) {
      const chatId = ctx.query.get("chat_id") ?? raise(400, 99992402, "field validation failed: chat_id");
      chatOf(ctx.st, chatId, ctx.caller);
      const pins = stored(ctx.st, PINS).filter((p) => p.chat_id === chatId).map(({ id: _id, ...p }) => p);
      const page = paginate(pins, pageOf(ctx.query, { size: 20, max: 50 }));
      return ok({ items: page.items, has_more: page.has_more, page_token: page.page_token ?? "" });
    },
  },
  {
    method: "GET",
    path: "/open-apis/im/v1/messages/:message_id/reactions",
    auth: "token",
    scopes: ["im:message.reactions:read", "im:message"],
    handle(ctx) {
      // Reactions are added and removed by sandbox/events/reactions.ts (which pushes their events), into its
      // `reactions` table; the list reads the same table, so what was added is what is listed.
      const m = messageIn(ctx, ctx.params.message_id);
      const type = ctx.query.get("reaction_type");
      const hasTable = one(
        ctx.st.db,
        "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'reactions'",
      );
      const rows = hasTable
        ? all<
          {
            reaction_id: string;
            emoji_type: string;
            operator_id: string;
            operator_type: string;
            action_time: number;
          }
        >(
          ctx.st.db,
          "SELECT * FROM reactions WHERE message_id = ? ORDER BY action_time, rowid",
          m.message_id,
        )
        : [];
      const items = rows.filter((r) => !type || r.emoji_type === type).map((r) => ({
        reaction_id: r.reaction_id,
        operator: { operator_id: r.operator_id, operator_type: r.operator_type },
        action_time: String(r.action_time),
        reaction_type: { emoji_type: r.emoji_type },
      }));
      const page = paginate(items, pageOf(ctx.query, { size: 20, max: 50 }));
      return ok({ items: page.items, has_more: page.has_more, page_token: page.page_token ?? "" });
    },
  },
];

const PINS = "/open-apis/im/v1/pins";

/** Adding and removing chat members: the chat (the caller must see it) and the member ids named. */
function membersRequest(ctx: CallerCtx): { chat: ChatRow; id_list: string[] } {
  const chat = chatOf(ctx.st, ctx.params.chat_id, ctx.caller);
  const { id_list } = jsonBody(ctx, z.looseObject({ id_list: z._default(z.array(z.string()), []) }));
  return { chat, id_list };
}

/** The open_id of a member id of `member_id_type` (open_id by default); a bot is named by its app id. */
function personOf(ctx: CallerCtx, id: string): string | undefined {
  if (id === ctx.st.app.appId) return ctx.st.app.botOpenId;
  const column = ({ user_id: "user_id", union_id: "union_id" } as Record<string, string>)[
    ctx.query.get("member_id_type") ?? ""
  ] ?? "open_id";
  return one<{ open_id: string }>(ctx.st.db, `SELECT open_id FROM users WHERE ${column} = ?`, id)?.open_id;
}

/** A message in a chat the caller is in (230011 when there is none). */
function messageIn(ctx: CallerCtx, messageId: string): { message_id: string; chat_id: string } {
  const m = one<{ message_id: string; chat_id: string }>(
    ctx.st.db,
    "SELECT message_id, chat_id FROM messages WHERE message_id = ?",
    messageId,
  ) ?? raise(400, 230011, `The message was not found: ${messageId}`);
  chatOf(ctx.st, m.chat_id, ctx.caller);
  return m;
}
