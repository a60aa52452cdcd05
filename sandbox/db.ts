/**
 * The emulator's state: one SQLite database (`:memory:` unless a data dir is given, so `--data` survives a
 * restart). Every table mirrors one suite resource; JSON columns hold the nested parts the suite returns as-is.
 * A stored file's bytes live on disk (`file_store.ts`); `blobs` holds its metadata and size.
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS apps (app_id TEXT PRIMARY KEY, app_secret TEXT NOT NULL, name TEXT NOT NULL,
  bot_open_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS app_scopes (kind TEXT NOT NULL, scope TEXT NOT NULL, PRIMARY KEY (kind, scope));
CREATE TABLE IF NOT EXISTS users (open_id TEXT PRIMARY KEY, union_id TEXT NOT NULL, user_id TEXT NOT NULL,
  name TEXT NOT NULL, en_name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, mobile TEXT NOT NULL,
  department_id TEXT NOT NULL, job_title TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, kind TEXT NOT NULL, app_id TEXT NOT NULL,
  open_id TEXT, scopes TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS refresh_tokens (token TEXT PRIMARY KEY, open_id TEXT NOT NULL, scopes TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used_at INTEGER);
CREATE TABLE IF NOT EXISTS device_codes (device_code TEXT PRIMARY KEY, user_code TEXT NOT NULL UNIQUE,
  app_id TEXT NOT NULL, scopes TEXT NOT NULL, status TEXT NOT NULL, open_id TEXT, granted_scopes TEXT,
  expires_at INTEGER NOT NULL, interval_s INTEGER NOT NULL, last_poll_at INTEGER);
CREATE TABLE IF NOT EXISTS calendars (calendar_id TEXT PRIMARY KEY, owner TEXT NOT NULL, summary TEXT NOT NULL,
  description TEXT NOT NULL, type TEXT NOT NULL, is_primary INTEGER NOT NULL, color INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (event_id TEXT PRIMARY KEY, calendar_id TEXT NOT NULL, summary TEXT NOT NULL,
  description TEXT NOT NULL, start_ts INTEGER NOT NULL, end_ts INTEGER NOT NULL, all_day INTEGER NOT NULL,
  timezone TEXT NOT NULL, recurrence TEXT NOT NULL, status TEXT NOT NULL, visibility TEXT NOT NULL,
  free_busy_status TEXT NOT NULL, location TEXT, organizer TEXT NOT NULL, create_time INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_calendar ON events (calendar_id, start_ts);
CREATE TABLE IF NOT EXISTS attendees (event_id TEXT NOT NULL, attendee_id TEXT NOT NULL, type TEXT NOT NULL,
  open_id TEXT, display_name TEXT NOT NULL, rsvp_status TEXT NOT NULL, PRIMARY KEY (event_id, attendee_id));
CREATE TABLE IF NOT EXISTS chats (chat_id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,
  owner_id TEXT NOT NULL, chat_mode TEXT NOT NULL, external INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chat_members (chat_id TEXT NOT NULL, member_id TEXT NOT NULL,
  PRIMARY KEY (chat_id, member_id));
CREATE TABLE IF NOT EXISTS messages (message_id TEXT PRIMARY KEY, chat_id TEXT NOT NULL, msg_type TEXT NOT NULL,
  content TEXT NOT NULL, sender_id TEXT NOT NULL, sender_type TEXT NOT NULL, create_time INTEGER NOT NULL,
  root_id TEXT, parent_id TEXT, uuid TEXT);
CREATE INDEX IF NOT EXISTS messages_by_chat_page ON messages (chat_id, create_time, message_id); -- the list order: no sort per page
CREATE INDEX IF NOT EXISTS messages_by_root ON messages (root_id);
CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
  file_type TEXT NOT NULL, size INTEGER NOT NULL, owner TEXT NOT NULL, parent TEXT NOT NULL,
  create_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS uploads (upload_id TEXT PRIMARY KEY, name TEXT NOT NULL, parent TEXT NOT NULL,
  size INTEGER NOT NULL, block_size INTEGER NOT NULL, block_num INTEGER NOT NULL, owner TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS upload_parts (upload_id TEXT NOT NULL, seq INTEGER NOT NULL, size INTEGER NOT NULL,
  PRIMARY KEY (upload_id, seq));
CREATE TABLE IF NOT EXISTS docs (document_id TEXT PRIMARY KEY, title TEXT NOT NULL, markdown TEXT NOT NULL,
  folder_token TEXT NOT NULL, revision INTEGER NOT NULL, owner TEXT NOT NULL, create_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sheet_tabs (spreadsheet_token TEXT NOT NULL, sheet_id TEXT NOT NULL,
  title TEXT NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (spreadsheet_token, sheet_id));
CREATE TABLE IF NOT EXISTS sheet_cells (spreadsheet_token TEXT NOT NULL, sheet_id TEXT NOT NULL,
  row INTEGER NOT NULL, col INTEGER NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (spreadsheet_token, sheet_id, row, col));
CREATE TABLE IF NOT EXISTS records (app_token TEXT NOT NULL, table_id TEXT NOT NULL, record_id TEXT NOT NULL,
  fields TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (app_token, table_id, record_id));
CREATE TABLE IF NOT EXISTS tasks (guid TEXT PRIMARY KEY, summary TEXT NOT NULL, description TEXT NOT NULL,
  due_ts INTEGER, due_all_day INTEGER NOT NULL DEFAULT 0, completed_at INTEGER NOT NULL, creator TEXT NOT NULL, assignee TEXT, create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS mails (message_id TEXT PRIMARY KEY, mailbox TEXT NOT NULL, folder TEXT NOT NULL,
  subject TEXT NOT NULL, head_from TEXT NOT NULL, recipients TEXT NOT NULL, body_plain TEXT NOT NULL,
  body_html TEXT NOT NULL, raw TEXT, attachments TEXT NOT NULL, create_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS generic_objects (collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
  deleted INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (collection, id));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

export function openDatabase(dataDir?: string): DatabaseSync {
  if (dataDir) Deno.mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(dataDir ? join(dataDir, "sandbox.db") : ":memory:");
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  db.exec(SCHEMA);
  // A data dir made before tasks kept whether their due is a date.
  if (!hasColumn(db, "tasks", "due_all_day")) {
    db.exec("ALTER TABLE tasks ADD COLUMN due_all_day INTEGER NOT NULL DEFAULT 0");
  }
  return db;
}

/** Whether `table` has `column` yet (a data dir made by an older emulator may lack it). */
export function hasColumn(db: DatabaseSync, table: string, column: string): boolean {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) =>
    c.name === column
  );
}

/** Runs `fn` in one transaction: a handler's writes land together or not at all. */
export function tx<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

/** A persistent counter, so ids stay unique across restarts of an on-disk emulator. */
export function nextCounter(db: DatabaseSync, name: string): number {
  const row = db.prepare(
    "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
  ).get(name) as { value: number };
  return row.value;
}

/** Suite-style ids: a fixed prefix and a hex body, e.g. `om_` + 24 hex digits. */
export function newId(db: DatabaseSync, prefix: string, width = 24): string {
  return prefix + newHex(db, prefix, width);
}

export function newHex(db: DatabaseSync, counter: string, width: number): string {
  return nextCounter(db, counter).toString(16).padStart(width, "0");
}

export type Row = Record<string, unknown>;
type Param = string | number | null | Uint8Array;

export function all<T = Row>(db: DatabaseSync, sql: string, ...args: Param[]): T[] {
  return db.prepare(sql).all(...args) as T[];
}

export function one<T = Row>(db: DatabaseSync, sql: string, ...args: Param[]): T | undefined {
  return db.prepare(sql).get(...args) as T | undefined;
}

export function run(db: DatabaseSync, sql: string, ...args: Param[]): void {
  db.prepare(sql).run(...args);
}
