/**
 * Persistence of remote-control enrollments in the state database (SQLite), so a restart reuses the relay's
 * server id instead of enrolling a new device each time. The installation id lives here too: it is generated
 * once per state database and sent with every enrollment and handshake.
 */
import { DatabaseSync } from "node:sqlite";
import { z } from "zod";

export interface EnrollmentKey {
  websocketUrl: string;
  accountId: string;
  /** The first local client's name; "" when there is none. */
  clientName: string;
}

export interface Enrollment extends EnrollmentKey {
  serverId: string;
  environmentId: string;
  serverName: string;
  /** Epoch seconds of the last upsert. */
  updatedAt: number;
  /**
   * The persisted "remote control enabled" preference: true/false once `remoteControl/enable|disable` set it,
   * null when never set (treated as disabled at start-up). An upsert never overwrites it.
   */
  remoteControlEnabled: boolean | null;
}

const rowSchema = z.object({
  websocket_url: z.string(),
  account_id: z.string(),
  app_server_client_name: z.string(),
  server_id: z.string(),
  environment_id: z.string(),
  server_name: z.string(),
  updated_at: z.number(),
  remote_control_enabled: z.number().nullable(),
});

const SCHEMA = `
CREATE TABLE IF NOT EXISTS remote_control_enrollments (
  websocket_url TEXT NOT NULL,
  account_id TEXT NOT NULL,
  app_server_client_name TEXT NOT NULL,
  server_id TEXT NOT NULL,
  environment_id TEXT NOT NULL,
  server_name TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (websocket_url, account_id, app_server_client_name)
);
CREATE TABLE IF NOT EXISTS remote_control_installation (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  installation_id TEXT NOT NULL
);`;

export class EnrollmentStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(SCHEMA);
    // Databases created before the preference existed get the column, NULL (disabled) for every row.
    const columns = z.array(z.object({ name: z.string() }).loose()).parse(
      db.prepare("PRAGMA table_info(remote_control_enrollments)").all(),
    );
    if (!columns.some((c) => c.name === "remote_control_enabled")) {
      db.exec("ALTER TABLE remote_control_enrollments ADD COLUMN remote_control_enabled INTEGER");
    }
  }

  /** Opens (creating if needed) the state database file at `path`; its directory must exist. */
  static open(path: string): EnrollmentStore {
    const db = new DatabaseSync(path);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;");
    return new EnrollmentStore(db);
  }

  load(key: EnrollmentKey): Enrollment | undefined {
    const row = this.#db.prepare(
      `SELECT websocket_url, account_id, app_server_client_name, server_id, environment_id, server_name, updated_at,
         remote_control_enabled
       FROM remote_control_enrollments
       WHERE websocket_url = ? AND account_id = ? AND app_server_client_name = ?`,
    ).get(key.websocketUrl, key.accountId, key.clientName);
    if (row === undefined) return undefined;
    const r = rowSchema.parse(row);
    return {
      websocketUrl: r.websocket_url,
      accountId: r.account_id,
      clientName: r.app_server_client_name,
      serverId: r.server_id,
      environmentId: r.environment_id,
      serverName: r.server_name,
      updatedAt: r.updated_at,
      remoteControlEnabled: r.remote_control_enabled === null ? null : r.remote_control_enabled === 1,
    };
  }

  /** Inserts or updates the ids; `remoteControlEnabled` is written on insert only, never over an existing row. */
  upsert(e: Enrollment): void {
    this.#db.prepare(
      `INSERT INTO remote_control_enrollments (
         websocket_url, account_id, app_server_client_name, server_id, environment_id, server_name,
         remote_control_enabled, updated_at
       ) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(websocket_url, account_id, app_server_client_name) DO UPDATE SET
         server_id = excluded.server_id,
         environment_id = excluded.environment_id,
         server_name = excluded.server_name,
         updated_at = excluded.updated_at`,
    ).run(
      e.websocketUrl,
      e.accountId,
      e.clientName,
      e.serverId,
      e.environmentId,
      e.serverName,
      e.remoteControlEnabled === null ? null : e.remoteControlEnabled ? 1 : 0,
      e.updatedAt,
    );
  }

  /** Sets the persisted preference of an existing row (no row: nothing to set; the insert will carry it). */
  setEnabled(key: EnrollmentKey, enabled: boolean, updatedAt: number): void {
    this.#db.prepare(
      `UPDATE remote_control_enrollments SET remote_control_enabled = ?, updated_at = ?
       WHERE websocket_url = ? AND account_id = ? AND app_server_client_name = ?`,
    ).run(enabled ? 1 : 0, updatedAt, key.websocketUrl, key.accountId, key.clientName);
  }

  delete(key: EnrollmentKey): void {
    this.#db.prepare(
      `DELETE FROM remote_control_enrollments
       WHERE websocket_url = ? AND account_id = ? AND app_server_client_name = ?`,
    ).run(key.websocketUrl, key.accountId, key.clientName);
  }

  /** The installation id, generated by `generate` on first use and stored from then on. */
  installationId(generate: () => string): string {
    const select = this.#db.prepare(
      "SELECT installation_id FROM remote_control_installation WHERE singleton = 1",
    );
    const parse = (row: unknown) => z.object({ installation_id: z.string() }).parse(row).installation_id;
    const existing = select.get();
    if (existing !== undefined) return parse(existing);
    // DO NOTHING: another process may have stored its id between the select and here; its id wins.
    this.#db.prepare(
      "INSERT INTO remote_control_installation (singleton, installation_id) VALUES (1, ?) ON CONFLICT DO NOTHING",
    ).run(generate());
    return parse(select.get());
  }

  close(): void {
    this.#db.close();
  }
}
