import assert from "node:assert/strict";
import { createRunContext } from "../context.ts";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../test_provider.ts";
import { resolveIdentity } from "./identity.ts";
import type { Account, AsFlag, CredentialChain, Identity, StrictMode } from "./types.ts";

function contextWith(opts: { strictMode?: StrictMode; defaultAs?: AsFlag; available?: Identity[] }) {
  const ctx = createRunContext(testProvider(), { debug: false, color: false, offline: true });
  const account: Account = {
    source: "test",
    brand: "feishu",
    endpoints: { open: "https://o", accounts: "https://a", mcp: "https://m/mcp" },
    strictMode: opts.strictMode ?? "off",
    defaultAs: opts.defaultAs,
  };
  const chain: CredentialChain = {
    account: () => Promise.resolve(account),
    identities: () => Promise.resolve(opts.available ?? ["user", "bot"]),
    token: () => Promise.reject(new Error("no token in this test")),
    grantedScopes: () => Promise.resolve(undefined),
  };
  ctx.credentials = () => chain;
  return ctx;
}

async function errorSubtype(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LarkitError);
    return e.subtype;
  }
  throw new Error("expected an error");
}

Deno.test("auto prefers a logged-in user, falls back to bot, and records the identity", async () => {
  const both = contextWith({});
  assert.equal(await resolveIdentity(both, { supported: ["user", "bot"] }), "user");
  assert.equal(both.state.identity, "user");
  assert.equal(
    await resolveIdentity(contextWith({ available: ["bot"] }), { supported: ["user", "bot"] }),
    "bot",
  );
  assert.equal(await resolveIdentity(contextWith({}), { flag: "auto", supported: ["bot"] }), "bot");
});

Deno.test("explicit --as and default-as must be supported by the command", async () => {
  assert.equal(await resolveIdentity(contextWith({}), { flag: "bot", supported: ["user", "bot"] }), "bot");
  assert.equal(
    await errorSubtype(resolveIdentity(contextWith({}), { flag: "bot", supported: ["user"] })),
    "validation",
  );
  const byDefault = contextWith({ defaultAs: "bot" });
  assert.equal(await resolveIdentity(byDefault, { supported: ["user", "bot"] }), "bot");
  assert.equal(await errorSubtype(resolveIdentity(byDefault, { supported: ["user"] })), "validation");
  // --as auto skips the configured default on purpose.
  assert.equal(await resolveIdentity(byDefault, { flag: "auto", supported: ["user", "bot"] }), "user");
});

Deno.test("strict mode forces its identity and refuses the other one", async () => {
  const strict = contextWith({ strictMode: "bot" });
  assert.equal(await resolveIdentity(strict, { supported: ["user", "bot"] }), "bot");
  assert.equal(
    await errorSubtype(resolveIdentity(strict, { flag: "user", supported: ["user", "bot"] })),
    "strict_mode",
  );
  assert.equal(await errorSubtype(resolveIdentity(strict, { supported: ["user"] })), "strict_mode");
});

Deno.test("no credentials for any supported identity: auth with a login hint, or config for bot-only", async () => {
  assert.equal(
    await errorSubtype(resolveIdentity(contextWith({ available: [] }), { supported: ["user", "bot"] })),
    "auth",
  );
  assert.equal(
    await errorSubtype(resolveIdentity(contextWith({ available: ["user"] }), { supported: ["bot"] })),
    "config",
  );
});
