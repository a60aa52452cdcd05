/**
 * A remote-control host, or a session alone, as the relay tests build it: the account `acct-1` as a user, real
 * fetch, a fast reconnect backoff and no client name. `extra` adds or overrides options.
 */
import { DatabaseSync } from "node:sqlite";
import { abortableSleep } from "../../cli/provider.ts";
import { testProvider } from "../../cli/test_provider.ts";
import type { AppServer } from "../../rpc/connection.ts";
import { createRemoteControlHost, type RemoteControlHostOptions } from "../../relay/host.ts";
import { RemoteControlSession, type SessionOptions } from "../../relay/session.ts";
import { EnrollmentStore } from "../../relay/store.ts";
import { normalizeRelayBaseUrl } from "../../relay/url.ts";
import { until } from "./until.ts";

export function testHost(baseUrl: string, extra: Partial<RemoteControlHostOptions> = {}) {
  const provider = testProvider({
    fetch: (input, init) => fetch(input, init),
    uuids: () => crypto.randomUUID(),
  });
  const host = createRemoteControlHost({
    provider,
    baseUrl,
    getAccount: () => Promise.resolve({ accountId: "acct-1", accessToken: "tok", kind: "user" }),
    timing: { backoffBaseMs: 10, backoffCapMs: 40 },
    clientName: "",
    ...extra,
  });
  return { provider, host };
}

/** A session on the relay at `baseUrl` for `appServer`, on the real clock, its enrollment in memory. */
export function testSession(
  baseUrl: string,
  appServer: AppServer,
  extra: Partial<SessionOptions> = {},
): RemoteControlSession {
  return new RemoteControlSession({
    urls: normalizeRelayBaseUrl(baseUrl),
    appServer,
    getAccount: () => Promise.resolve({ accountId: "acct-1", accessToken: "tok", kind: "user" }),
    store: new EnrollmentStore(new DatabaseSync(":memory:")),
    clock: { now: () => Date.now(), sleep: abortableSleep },
    random: { uuid: () => crypto.randomUUID(), bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    fetch: (input, init) => fetch(input, init),
    server: { name: "test-host", os: "linux", arch: "x86_64", appServerVersion: "0.1.0" },
    clientName: "",
    ...extra,
    timing: { backoffBaseMs: 10, backoffCapMs: 40, ...extra.timing },
  });
}

/** Turns remote control on (a session's, or a host's `remote`) and waits until it is connected to the relay. */
export async function connectRemote(
  remote: { enable(): Promise<unknown>; status: { current: { status: string } } },
): Promise<void> {
  await remote.enable();
  await until("connected", () => remote.status.current.status === "connected");
}
