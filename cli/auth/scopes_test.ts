import assert from "node:assert/strict";
import { createRunContext } from "../context.ts";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../test_provider.ts";
import { checkScopes, missingScopes, parseScopes } from "./scopes.ts";

Deno.test("scopes parse from spaces and commas, without duplicates", () => {
  assert.deepEqual(parseScopes(" a b,c  a "), ["a", "b", "c"]);
  assert.deepEqual(parseScopes(undefined), []);
  assert.deepEqual(missingScopes(["a", "b"], ["b", "c", "c"]), ["c"]);
});

Deno.test("the bot-side pre-check fails from configured scopes before any request", async () => {
  let requests = 0;
  const p = testProvider({
    env: { LARKIT_APP_ID: "cli_x", LARKIT_APP_SECRET: "s3cret", LARKIT_BOT_SCOPES: "im:chat:read" },
    fetch: () => {
      requests++;
      return Promise.reject(new TypeError("no network"));
    },
  });
  const ctx = createRunContext(p, { debug: false, color: false, offline: true, profile: "work" });
  await assert.rejects(checkScopes(ctx, "bot", ["im:chat:read", "calendar:calendar"]), (e) => {
    assert.ok(e instanceof LarkitError);
    assert.deepEqual([e.type, e.subtype], ["authorization", "missing_scope"]);
    assert.match(e.body.message, /calendar:calendar/);
    assert.match(String(e.hint), /developer console/);
    return true;
  });
  await checkScopes(ctx, "bot", ["im:chat:read"]);
  // Unknown grants (a user token from the environment would have none) pass.
  await checkScopes(ctx, "user", ["anything"]);
  assert.equal(requests, 0);
});

Deno.test("the user-side hint is the exact login command for this profile", async () => {
  const { missingScopeHint } = await import("./scopes.ts");
  assert.equal(
    missingScopeHint("user", ["a:b", "c:d"], "work"),
    'grant them by logging in again: larkit --profile work auth login --scope "a:b c:d"; or run the command with --as bot',
  );
});
