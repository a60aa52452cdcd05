/**
 * A remote-control host as the relay tests build it: a test provider that really fetches, the account
 * `acct-1` as a user, a fast reconnect backoff and no client name. `extra` adds or overrides options.
 */
import { testProvider } from "../../cli/test_provider.ts";
import { createRemoteControlHost, type RemoteControlHostOptions } from "../../relay/host.ts";

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
