/**
 * The one way to open the state database (`<stateDir>/state.db`): threads, turns and their outputs, and remote
 * control's enrollments live there, so the directory is made 0700 and the file 0600 whatever the umask, and a
 * directory left looser by an older larkit is tightened. Both the agent server and the relay host open it here.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export const STATE_DB = "state.db";

/** Makes `dir` exist with mode 0700 (tightening an existing one). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export function openStateDb(stateDir: string): DatabaseSync {
  ensurePrivateDir(stateDir);
  const path = join(stateDir, STATE_DB);
  // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the database file's mode.
  closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec("PRAGMA journal_mode = WAL");
  return db;
}
