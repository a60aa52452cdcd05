/**
 * Threads, turns and items persisted in the state database (`<stateDir>/state.db`, tables prefixed `rpc_`),
 * so `thread/list`, `thread/read` and `thread/resume` see the history after a restart. Rows hold JSON for the
 * parts clients read back whole (items, parsed envelopes); columns for what is filtered or ordered on.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import * as z from "zod";
import { addMissingColumn, openStateDb } from "./state_db.ts";

export type TurnStatus = "inProgress" | "completed" | "failed" | "interrupted";

/** Who started a thread or turn: null for a local client, else the remote device (`ownerOf` in policy.ts). */
export type Owner = string | null;

export interface ThreadRecord {
  id: string;
  preview: string;
  cwd: string;
  createdAtMs: number;
  updatedAtMs: number;
  owner: Owner;
}

export interface TurnRecord {
  id: string;
  threadId: string;
  status: TurnStatus;
  input: string;
  exitCode: number | null;
  result?: unknown;
  error?: unknown;
  startedAtMs: number;
  completedAtMs: number | null;
  owner: Owner;
}

/** An item as clients see it (`userMessage`, `commandExecution`); stored whole as JSON. */
export type ItemBody = { type: string; id: string } & Record<string, unknown>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rpc_threads (
  id TEXT PRIMARY KEY,
  preview TEXT NOT NULL,
  cwd TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  owner TEXT
);
CREATE TABLE IF NOT EXISTS rpc_turns (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL REFERENCES rpc_threads(id),
  seq INTEGER NOT NULL,
  status TEXT NOT NULL,
  input TEXT NOT NULL,
  exit_code INTEGER,
  result_json TEXT,
  error_json TEXT,
  started_at_ms INTEGER NOT NULL,
  completed_at_ms INTEGER,
  owner TEXT
);
CREATE INDEX IF NOT EXISTS rpc_turns_thread ON rpc_turns(thread_id, seq);
-- Only the turns still running: a server's start looks for them (interruptOrphanedTurns) without reading every
-- turn ever stored, and the index stays as small as the number of turns in flight.
CREATE INDEX IF NOT EXISTS rpc_turns_in_progress ON rpc_turns(status) WHERE status = 'inProgress';
CREATE TABLE IF NOT EXISTS rpc_items (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  turn_id TEXT NOT NULL REFERENCES rpc_turns(id),
  seq INTEGER NOT NULL,
  body_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rpc_items_turn ON rpc_items(turn_id, seq);
`;

/**
 * Databases written before threads had owners gain the column; their rows stay NULL, which reads as local: a
 * remote device under a remote policy sees none of them.
 */
const OWNER_COLUMNS = ["rpc_threads", "rpc_turns"];
const OWNER_INDEX =
  "CREATE INDEX IF NOT EXISTS rpc_threads_owner ON rpc_threads(owner, updated_at_ms DESC, id DESC);";

const ThreadRow = z.object({
  id: z.string(),
  preview: z.string(),
  cwd: z.string(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
  owner: z.nullable(z.string()),
});
const TurnRow = z.object({
  id: z.string(),
  thread_id: z.string(),
  status: z.enum(["inProgress", "completed", "failed", "interrupted"]),
  input: z.string(),
  exit_code: z.nullable(z.number()),
  result_json: z.nullable(z.string()),
  error_json: z.nullable(z.string()),
  started_at_ms: z.number(),
  completed_at_ms: z.nullable(z.number()),
  owner: z.nullable(z.string()),
});
const ItemRow = z.object({ body_json: z.string() });
// Built once: zod compiles a parser for each schema object on its first parse, so a schema made per call
// (per turn and per item) cost the agent server most of a trivial turn.
const ItemBodySchema = z.looseObject({ type: z.string(), id: z.string() });

function toThread(row: unknown): ThreadRecord {
  const r = ThreadRow.parse(row);
  return {
    id: r.id,
    preview: r.preview,
    cwd: r.cwd,
    createdAtMs: r.created_at_ms,
    updatedAtMs: r.updated_at_ms,
    owner: r.owner,
  };
}

function toTurn(row: unknown): TurnRecord {
  const r = TurnRow.parse(row);
  const turn: TurnRecord = {
    id: r.id,
    threadId: r.thread_id,
    status: r.status,
    input: r.input,
    exitCode: r.exit_code,
    startedAtMs: r.started_at_ms,
    completedAtMs: r.completed_at_ms,
    owner: r.owner,
  };
  if (r.result_json !== null) turn.result = JSON.parse(r.result_json);
  if (r.error_json !== null) turn.error = JSON.parse(r.error_json);
  return turn;
}

export class ThreadStore {
  readonly #db: DatabaseSync;
  readonly #owned: boolean;
  /** Each statement is compiled once per store: a turn runs several, hundreds of turns a second. */
  readonly #statements = new Map<string, StatementSync>();

  /** Opens `<stateDir>/state.db` (created if missing), or uses a database the caller already opened. */
  constructor(source: { stateDir: string } | { db: DatabaseSync }) {
    if ("db" in source) {
      this.#db = source.db;
      this.#owned = false;
    } else {
      this.#db = openStateDb(source.stateDir);
      this.#owned = true;
    }
    this.#db.exec(SCHEMA);
    for (const table of OWNER_COLUMNS) addMissingColumn(this.#db, table, "owner", "TEXT");
    this.#db.exec(OWNER_INDEX);
  }

  /**
   * A turn still `inProgress` in the database belongs to a process that died mid-turn; nothing can finish it,
   * so it is recorded as interrupted when a new server starts.
   */
  interruptOrphanedTurns(nowMs: number): number {
    const res = this.#sql(
      "UPDATE rpc_turns SET status = 'interrupted', completed_at_ms = ? WHERE status = 'inProgress'",
    ).run(nowMs);
    return Number(res.changes);
  }

  createThread(t: ThreadRecord): void {
    this.#sql(
      "INSERT INTO rpc_threads (id, preview, cwd, created_at_ms, updated_at_ms, owner) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(t.id, t.preview, t.cwd, t.createdAtMs, t.updatedAtMs, t.owner);
  }

  getThread(id: string): ThreadRecord | undefined {
    const row = this.#sql("SELECT * FROM rpc_threads WHERE id = ?").get(id);
    return row ? toThread(row) : undefined;
  }

  /**
   * Newest first; the cursor is the last id of the previous page. With `owner`, only that owner's threads (a
   * cursor naming another's thread is no cursor: nothing is learnt about it).
   */
  listThreads(
    limit: number,
    cursor?: string,
    owner?: string,
  ): { threads: ThreadRecord[]; nextCursor: string | null } {
    const found = cursor ? this.getThread(cursor) : undefined;
    const after = owner === undefined || found?.owner === owner ? found : undefined;
    const rows = owner === undefined
      ? (after
        ? this.#sql(
          `SELECT * FROM rpc_threads WHERE (updated_at_ms, id) < (?, ?)
         ORDER BY updated_at_ms DESC, id DESC LIMIT ?`,
        ).all(after.updatedAtMs, after.id, limit + 1)
        : this.#sql("SELECT * FROM rpc_threads ORDER BY updated_at_ms DESC, id DESC LIMIT ?").all(
          limit + 1,
        ))
      : (after
        ? this.#sql(
          `SELECT * FROM rpc_threads WHERE owner = ? AND (updated_at_ms, id) < (?, ?)
         ORDER BY updated_at_ms DESC, id DESC LIMIT ?`,
        ).all(owner, after.updatedAtMs, after.id, limit + 1)
        : this.#sql(
          "SELECT * FROM rpc_threads WHERE owner = ? ORDER BY updated_at_ms DESC, id DESC LIMIT ?",
        ).all(owner, limit + 1));
    const threads = rows.slice(0, limit).map(toThread);
    return { threads, nextCursor: rows.length > limit ? threads[threads.length - 1].id : null };
  }

  touchThread(id: string, nowMs: number, preview?: string): void {
    if (preview === undefined) {
      this.#sql("UPDATE rpc_threads SET updated_at_ms = ? WHERE id = ?").run(nowMs, id);
    } else {
      this.#sql("UPDATE rpc_threads SET updated_at_ms = ?, preview = ? WHERE id = ?").run(
        nowMs,
        preview,
        id,
      );
    }
  }

  /**
   * A turn's start in one transaction: its row, the thread's update (and first preview), and its first items.
   * A trivial turn used to commit eight times; one commit at the start and one at the end (`completeTurn`) keep
   * what a crash leaves behind the same (an `inProgress` turn, read back as interrupted).
   */
  startTurn(t: TurnRecord, items: ItemBody[], preview?: string): void {
    this.#transaction(() => {
      this.createTurn(t);
      this.touchThread(t.threadId, t.startedAtMs, preview);
      for (const item of items) this.saveItem(t.threadId, t.id, item);
    });
  }

  /** A turn's end in one transaction: its last item's final state, its outcome and the thread's update. */
  completeTurn(t: TurnRecord, item: ItemBody): void {
    this.#transaction(() => {
      this.saveItem(t.threadId, t.id, item);
      this.finishTurn(t);
      this.touchThread(t.threadId, t.completedAtMs ?? t.startedAtMs);
    });
  }

  /** The next turn's seq is computed inside the insert (the thread's index answers MAX in one lookup). */
  createTurn(t: TurnRecord): void {
    this.#sql(
      `INSERT INTO rpc_turns (id, thread_id, seq, status, input, started_at_ms, owner)
       VALUES (?, ?, (SELECT COALESCE(MAX(seq) + 1, 0) FROM rpc_turns WHERE thread_id = ?), ?, ?, ?, ?)`,
    ).run(t.id, t.threadId, t.threadId, t.status, t.input, t.startedAtMs, t.owner);
  }

  finishTurn(t: TurnRecord): void {
    this.#sql(
      `UPDATE rpc_turns SET status = ?, exit_code = ?, result_json = ?, error_json = ?, completed_at_ms = ?
       WHERE id = ?`,
    ).run(
      t.status,
      t.exitCode,
      t.result === undefined ? null : JSON.stringify(t.result),
      t.error === undefined ? null : JSON.stringify(t.error),
      t.completedAtMs,
      t.id,
    );
  }

  turnsOf(threadId: string): TurnRecord[] {
    return this.#sql("SELECT * FROM rpc_turns WHERE thread_id = ? ORDER BY seq").all(threadId).map(
      toTurn,
    );
  }

  /**
   * Inserts or replaces an item in one statement: `item/started` writes it (next seq in its turn),
   * `item/completed` overwrites its body and keeps its seq.
   */
  saveItem(threadId: string, turnId: string, item: ItemBody): void {
    this.#sql(
      `INSERT INTO rpc_items (id, thread_id, turn_id, seq, body_json)
       VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq) + 1, 0) FROM rpc_items WHERE turn_id = ?), ?)
       ON CONFLICT(id) DO UPDATE SET body_json = excluded.body_json`,
    ).run(item.id, threadId, turnId, turnId, JSON.stringify(item));
  }

  itemsOf(turnId: string): ItemBody[] {
    return this.#sql("SELECT body_json FROM rpc_items WHERE turn_id = ? ORDER BY seq").all(turnId)
      .map((row) => ItemBodySchema.parse(JSON.parse(ItemRow.parse(row).body_json)) as ItemBody);
  }

  /** Runs `work` as one transaction: all of it is committed, or none of it (the error is rethrown). */
  #transaction(work: () => void): void {
    this.#sql("BEGIN").run();
    try {
      work();
      this.#sql("COMMIT").run();
    } catch (e) {
      if (this.#db.isTransaction) this.#sql("ROLLBACK").run();
      throw e;
    }
  }

  #sql(text: string): StatementSync {
    let statement = this.#statements.get(text);
    if (!statement) this.#statements.set(text, statement = this.#db.prepare(text));
    return statement;
  }

  close(): void {
    if (this.#owned) this.#db.close();
  }
}
