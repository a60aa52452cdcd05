import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { EnrollmentStore } from "./store.ts";

const key = {
  websocketUrl: "ws://127.0.0.1:1/backend-api/wham/remote/control/server",
  accountId: "a1",
  clientName: "",
};

Deno.test("enrollments upsert by (websocket_url, account_id, client name) and delete only their row", () => {
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  assert.equal(store.load(key), undefined);
  const none = { remoteControlEnabled: null };
  store.upsert({ ...key, ...none, serverId: "s1", environmentId: "e1", serverName: "m", updatedAt: 1 });
  store.upsert({ ...key, ...none, serverId: "s2", environmentId: "e2", serverName: "m2", updatedAt: 2 });
  store.upsert({
    ...key,
    ...none,
    clientName: "other",
    serverId: "s3",
    environmentId: "e3",
    serverName: "m",
    updatedAt: 3,
  });
  assert.deepEqual(store.load(key), {
    ...key,
    serverId: "s2",
    environmentId: "e2",
    serverName: "m2",
    updatedAt: 2,
    remoteControlEnabled: null,
  });
  store.delete(key);
  assert.equal(store.load(key), undefined);
  assert.equal(store.load({ ...key, clientName: "other" })?.serverId, "s3");
});

Deno.test("the enabled preference: set on a row, written on insert, never overwritten by an upsert", () => {
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  const row = { ...key, serverId: "s1", environmentId: "e1", serverName: "m", updatedAt: 1 };
  store.setEnabled(key, true, 5);
  assert.equal(store.load(key), undefined, "no row: nothing to set");
  store.upsert({ ...row, remoteControlEnabled: true });
  assert.equal(store.load(key)?.remoteControlEnabled, true);
  store.upsert({ ...row, serverId: "s2", remoteControlEnabled: false });
  assert.equal(store.load(key)?.remoteControlEnabled, true, "the upsert kept the preference");
  assert.equal(store.load(key)?.serverId, "s2");
  store.setEnabled(key, false, 6);
  assert.equal(store.load(key)?.remoteControlEnabled, false);
});

Deno.test("a database from before the preference column gets it (NULL: disabled)", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(`CREATE TABLE remote_control_enrollments (
    websocket_url TEXT NOT NULL, account_id TEXT NOT NULL, app_server_client_name TEXT NOT NULL,
    server_id TEXT NOT NULL, environment_id TEXT NOT NULL, server_name TEXT NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (websocket_url, account_id, app_server_client_name))`);
  db.prepare("INSERT INTO remote_control_enrollments VALUES (?, ?, ?, 's0', 'e0', 'm', 1)").run(
    key.websocketUrl,
    key.accountId,
    key.clientName,
  );
  const store = new EnrollmentStore(db);
  assert.equal(store.load(key)?.remoteControlEnabled, null);
});

Deno.test("the installation id is generated once and then reused", () => {
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  let calls = 0;
  const gen = () => `id-${++calls}`;
  assert.equal(store.installationId(gen), "id-1");
  assert.equal(store.installationId(gen), "id-1");
  assert.equal(calls, 1);
});
