/**
 * Message reactions (`POST|DELETE /open-apis/im/v1/messages/:message_id/reactions[/:reaction_id]`), written here
 * because their point in the emulator is the event they push: a reaction by someone other than the bot, on a
 * message in a chat the bot is in, reaches the app as `im.message.reaction.created_v1` / `deleted_v1`. The list
 * (`GET`) answers from the same table, so a reaction added is one listed.
 */
import * as z from "zod";
import { all, newId, one, run } from "../db.ts";
import { pageOf, paginate } from "../paging.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import type { EmulatorState } from "../state.ts";
import { pushOf } from "./push.ts";

const SCOPES = ["im:message.reactions:write_only", "im:message"];
const PATH = "/open-apis/im/v1/messages/:message_id/reactions";

const Body = z.object({ reaction_type: z.object({ emoji_type: z.string().check(z.minLength(1)) }) });

interface ReactionRow {
  reaction_id: string;
  message_id: string;
  emoji_type: string;
  operator_id: string;
  operator_type: string;
  action_time: number;
}

const prepared = new WeakSet<EmulatorState>();

function table(st: EmulatorState): void {
  if (prepared.has(st)) return;
  st.db.exec(`CREATE TABLE IF NOT EXISTS reactions (reaction_id TEXT PRIMARY KEY, message_id TEXT NOT NULL,
    emoji_type TEXT NOT NULL, operator_id TEXT NOT NULL, operator_type TEXT NOT NULL, action_time INTEGER NOT NULL)`);
  prepared.add(st);
}

/** The message and whether the caller may see it (a member of its chat). */
function messageChat(ctx: CallerCtx): string {
  const m = one<{ chat_id: string }>(
    ctx.st.db,
    "SELECT chat_id FROM messages WHERE message_id = ?",
    ctx.params.message_id,
  );
  if (!m) raise(400, 230011, `The message was not found: ${ctx.params.message_id}`);
  const member = one(
    ctx.st.db,
    "SELECT 1 AS x FROM chat_members WHERE chat_id = ? AND member_id = ?",
    m.chat_id,
    ctx.caller.openId,
  );
  if (!member) raise(400, 230002, "The operator is not in the chat of this message.");
  return m.chat_id;
}

function reactionJson(r: ReactionRow) {
  return {
    reaction_id: r.reaction_id,
    operator: { operator_id: r.operator_id, operator_type: r.operator_type },
    action_time: String(r.action_time),
    reaction_type: { emoji_type: r.emoji_type },
  };
}

function publish(ctx: CallerCtx, chatId: string, r: ReactionRow, type: "created" | "deleted"): void {
  const st = ctx.st;
  if (r.operator_type === "app") return;
  if (
    !one(
      st.db,
      "SELECT 1 AS x FROM chat_members WHERE chat_id = ? AND member_id = ?",
      chatId,
      st.app.botOpenId,
    )
  ) return;
  const user = one<{ open_id: string; union_id: string; user_id: string }>(
    st.db,
    "SELECT open_id, union_id, user_id FROM users WHERE open_id = ?",
    r.operator_id,
  );
  pushOf(st).publish(`im.message.reaction.${type}_v1`, {
    message_id: r.message_id,
    reaction_type: { emoji_type: r.emoji_type },
    operator_type: "user",
    user_id: user ?? { open_id: r.operator_id },
    action_time: String(r.action_time),
  });
}

export const reactionRoutes: Route[] = [
  {
    method: "GET",
    path: PATH,
    auth: "token",
    scopes: SCOPES,
    handle(ctx) {
      table(ctx.st);
      messageChat(ctx);
      const emoji = ctx.query.get("reaction_type") ?? "";
      const rows = all<ReactionRow>(
        ctx.st.db,
        "SELECT * FROM reactions WHERE message_id = ? AND (? = '' OR emoji_type = ?) ORDER BY action_time, reaction_id",
        ctx.params.message_id,
        emoji,
        emoji,
      );
      return ok(paginate(rows.map(reactionJson), pageOf(ctx.query, { size: 20, max: 50 })));
    },
  },
  {
    method: "POST",
    path: PATH,
    auth: "token",
    scopes: SCOPES,
    handle(ctx) {
      table(ctx.st);
      const chatId = messageChat(ctx);
      const body = jsonBody(ctx, Body);
      const r: ReactionRow = {
        reaction_id: newId(ctx.st.db, "ZCaCIjUBVVWSrm5L-", 16),
        message_id: ctx.params.message_id,
        emoji_type: body.reaction_type.emoji_type,
        operator_id: ctx.caller.kind === "tenant" ? ctx.st.app.appId : ctx.caller.openId,
        operator_type: ctx.caller.kind === "tenant" ? "app" : "user",
        action_time: ctx.st.clock.now(),
      };
      run(
        ctx.st.db,
        "INSERT INTO reactions (reaction_id, message_id, emoji_type, operator_id, operator_type, action_time) VALUES (?, ?, ?, ?, ?, ?)",
        r.reaction_id,
        r.message_id,
        r.emoji_type,
        r.operator_id,
        r.operator_type,
        r.action_time,
      );
      publish(ctx, chatId, r, "created");
      return ok(reactionJson(r));
    },
  },
  {
    method: "DELETE",
    path: `${PATH}/:reaction_id`,
    auth: "token",
    scopes: SCOPES,
    handle(ctx) {
      table(ctx.st);
      const chatId = messageChat(ctx);
      const r = one<ReactionRow>(
        ctx.st.db,
        "SELECT * FROM reactions WHERE reaction_id = ? AND message_id = ?",
        ctx.params.reaction_id,
        ctx.params.message_id,
      );
      if (!r) raise(400, 231003, `The reaction was not found: ${ctx.params.reaction_id}`);
      const mine = ctx.caller.kind === "tenant" ? ctx.st.app.appId : ctx.caller.openId;
      if (r.operator_id !== mine) raise(400, 231005, "Only the operator who added a reaction can remove it.");
      run(ctx.st.db, "DELETE FROM reactions WHERE reaction_id = ?", r.reaction_id);
      publish(ctx, chatId, { ...r, action_time: ctx.st.clock.now() }, "deleted");
      return ok(reactionJson(r));
    },
  },
];
