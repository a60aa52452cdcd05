import assert from "node:assert/strict";
import { LarkitError } from "../cli/output/errors.ts";
import { normalizeRelayBaseUrl } from "./url.ts";

Deno.test("allowed base URLs normalise to enroll and websocket URLs", () => {
  assert.deepEqual(normalizeRelayBaseUrl("https://open.feishu.cn"), {
    base: "https://open.feishu.cn/",
    enroll: "https://open.feishu.cn/backend-api/wham/remote/control/server/enroll",
    refresh: "https://open.feishu.cn/backend-api/wham/remote/control/server/refresh",
    websocket: "wss://open.feishu.cn/backend-api/wham/remote/control/server",
    pair: "https://open.feishu.cn/backend-api/wham/remote/control/server/pair",
    pairStatus: "https://open.feishu.cn/backend-api/wham/remote/control/server/pair/status",
    environments: "https://open.feishu.cn/backend-api/wham/remote/control/environments",
  });
  assert.equal(
    normalizeRelayBaseUrl("http://127.0.0.1:8080/prefix").websocket,
    "ws://127.0.0.1:8080/prefix/backend-api/wham/remote/control/server",
  );
  for (
    const ok of [
      "https://feishu.cn/",
      "https://larksuite.com",
      "https://a.b.larksuite.com",
      "https://feishu-staging.cn",
      "https://x.larksuite-staging.com",
      "http://localhost:1",
      "https://localhost:8443",
      "http://127.3.4.5",
      "http://[::1]:9",
    ]
  ) assert.ok(normalizeRelayBaseUrl(ok).base.endsWith("/"), ok);
});

Deno.test("disallowed base URLs are a validation error naming the allow-list", () => {
  for (
    const bad of [
      "http://feishu.cn",
      "http://example.com",
      "https://example.com",
      "https://feishu.cn.evil.com",
      "https://evilfeishu.cn",
      "https://foo.localhost",
      "ftp://127.0.0.1",
      "https://user:pw@open.feishu.cn",
      "not a url",
    ]
  ) {
    assert.throws(() => normalizeRelayBaseUrl(bad), (e: unknown) => {
      assert.ok(e instanceof LarkitError);
      assert.equal(e.type, "validation");
      assert.match(e.message, /invalid remote control URL/);
      return true;
    }, bad);
  }
});
