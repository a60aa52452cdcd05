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
  store.upsert({ ...key, serverId: "s1", environmentId: "e1", serverName: "m", updatedAt: 1 });
  store.upsert({ ...key, serverId: "s2", environmentId: "e2", serverName: "m2", updatedAt: 2 });
  store.upsert({
    ...key,
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
  });
  store.delete(key);
  assert.equal(store.load(key), undefined);
  assert.equal(store.load({ ...key, clientName: "other" })?.serverId, "s3");
});

Deno.test("the installation id is generated once and then reused", () => {
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  let calls = 0;
  const gen = () => `id-${++calls}`;
  assert.equal(store.installationId(gen), "id-1");
  assert.equal(store.installationId(gen), "id-1");
  assert.equal(calls, 1);
});
