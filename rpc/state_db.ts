/**
 * The one way to open the state database (`<stateDir>/state.db`): threads, turns and their outputs, and remote
 * control's enrollments live there, so the directory is made 0700 and the file 0600 whatever the umask, and a
 * directory left looser by an older larkit is tightened. Both the agent server and the relay host open it here.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
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
