/**
 * The keyed write that contract tests lose, interrupt, filter and re-run: a text message sent to a chat through
 * the generated `im messages create` (or raw `api`), how many copies of it the suite holds, and a hinted
 * command as argv.
 */
import type { Emulator } from "./emulator.ts";

/** `api POST` argv sending the message `body` to a chat (its `receive_id`). */
export function apiSendArgv(body: Record<string, unknown>): string[] {
  return [
    "api",
    "POST",
    "/open-apis/im/v1/messages",
    "--params",
    '{"receive_id_type":"chat_id"}',
    "--data",
    JSON.stringify(body),
  ];
}

/** `im messages create` argv sending `text` to chat `chatId`. */
export function sendTextArgv(chatId: string, text: string): string[] {
  return [
    "im",
    "messages",
    "create",
    "--params",
    '{"receive_id_type":"chat_id"}',
    "--data",
    JSON.stringify({ receive_id: chatId, msg_type: "text", content: JSON.stringify({ text }) }),
  ];
}

/** How many messages the suite holds whose content contains `text`. */
export function messagesWith(emu: Emulator, text: string): number {
  return (emu.db.prepare("SELECT count(*) AS n FROM messages WHERE content LIKE ?").get(`%${text}%`) as {
    n: number;
  }).n;
}

/** `larkit …` as hinted, split back into argv (the hint quotes with single quotes only). */
export function argvOfHint(hint: string): string[] {
  const command = hint.slice(hint.indexOf("larkit ") + "larkit ".length);
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1]?.replaceAll("'\\''", "'") ?? m[2]
  );
}
