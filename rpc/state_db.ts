/**
 * The one way to open the state database (`<stateDir>/state.db`): threads, turns and their outputs, and remote
 * control's enrollments live there, so the directory is made 0700 and the file 0600 whatever the umask, and a
 * directory left looser by an older larkit is tightened. Both the agent server and the relay host open it here,
 * and add here the columns their tables gained since an older larkit made them.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import * as z from "zod";
import { makePrivate } from "../cli/files.ts";

export const STATE_DB = "state.db";

export function openStateDb(stateDir: string): DatabaseSync {
  makePrivate(stateDir, "dir");
  const path = join(stateDir, STATE_DB);
  // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the database file's mode.
  makePrivate(path, "file");
  const db = new DatabaseSync(path, { timeout: 5000 });
  // WAL with synchronous=NORMAL: a commit appends to the log without an fsync (checkpoints still sync), so a
  // turn's several small writes stop costing a disk flush each; a power loss can drop the last commits, never
  // corrupt the file.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  return db;
}

/** A table made by an older larkit gets a column added since (`declaration`: its SQL type and default). */
export function addMissingColumn(db: DatabaseSync, table: string, column: string, declaration: string): void {
  const columns = z.array(z.looseObject({ name: z.string() })).parse(
    db.prepare(`PRAGMA table_info(${table})`).all(),
  );
  if (!columns.some((c) => c.name === column)) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${declaration}`);
  }
}
