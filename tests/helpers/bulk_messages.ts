/**
 * A chat with more messages than one page holds, for the tests that list every page (`--page-all`): the rows
 * written straight into the emulator's state, in one transaction, and the list that streams them as ndjson.
 */
import type { Emulator } from "./emulator.ts";

/** Adds `total` text messages (`m0`, `m1`, …, ids `om_<prefix>_00000`, …) to chat `chatId`; returns how many it holds now. */
export function seedMessages(emu: Emulator, chatId: string, total: number, prefix: string): number {
  const insert = emu.db.prepare(
    "INSERT INTO messages (message_id, chat_id, msg_type, content, sender_id, sender_type, create_time) VALUES (?, ?, 'text', ?, 'cli_bot', 'app', ?)",
  );
  emu.db.exec("BEGIN");
  for (let i = 0; i < total; i++) {
    insert.run(
      `om_${prefix}_${String(i).padStart(5, "0")}`,
      chatId,
      JSON.stringify({ text: `m${i}` }),
      1_600_000_000_000 + i,
    );
  }
  emu.db.exec("COMMIT");
  return (emu.db.prepare("SELECT COUNT(*) AS n FROM messages WHERE chat_id = ?").get(chatId) as { n: number })
    .n;
}

/** `im messages list` argv for every page of chat `chatId` (no page limit, 50 a page), one ndjson line an item. */
export function pageAllNdjsonArgv(chatId: string): string[] {
  return [
    "im",
    "messages",
    "list",
    "--params",
    JSON.stringify({ container_id_type: "chat", container_id: chatId }),
    "--page-all",
    "--page-limit",
    "0",
    "--page-size",
    "50",
    "--format",
    "ndjson",
  ];
}
