import assert from "node:assert/strict";
import { LarkitError } from "../output/errors.ts";
import { endpointsFor, isSuiteHost, parseBaseUrl } from "./endpoints.ts";

const refused = (raw: string, opts = {}) =>
  assert.throws(
    () => parseBaseUrl(raw, opts),
    (e) => e instanceof LarkitError && e.type === "validation",
    raw,
  );

Deno.test("suite domains and their subdomains over https, loopback over http(s), are accepted", () => {
  for (
    const [raw, origin] of [
      ["https://open.feishu.cn/x", "https://open.feishu.cn"],
      ["https://feishu.cn", "https://feishu.cn"],
      ["https://open.larksuite.com", "https://open.larksuite.com"],
      ["https://open.feishu-boe.cn", "https://open.feishu-boe.cn"],
      ["https://a.b.larksuite-boe.com", "https://a.b.larksuite-boe.com"],
      ["https://OPEN.FEISHU.CN", "https://open.feishu.cn"],
      ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
      ["http://127.0.0.2:9", "http://127.0.0.2:9"],
      ["http://localhost:1", "http://localhost:1"],
      ["http://[::1]:3000/", "http://[::1]:3000"],
      ["https://localhost:8443", "https://localhost:8443"],
    ]
  ) assert.equal(parseBaseUrl(raw), origin);
});

Deno.test("any other host is refused unless confirmed; plain http off loopback never", () => {
  for (
    const raw of [
      "https://evil.example",
      "https://feishu.cn.evil.example",
      "https://evilfeishu.cn",
      "https://open.feishu.cn@evil.example",
      "https://user:pw@open.feishu.cn",
      "http://open.feishu.cn",
      "http://evil.example",
      "ftp://open.feishu.cn",
      "open.feishu.cn",
    ]
  ) refused(raw);
  assert.equal(parseBaseUrl("https://evil.example/x", { allowUntrusted: true }), "https://evil.example");
  refused("http://evil.example", { allowUntrusted: true });
  assert.equal(isSuiteHost("feishu.cn."), true);
  assert.equal(isSuiteHost("xfeishu.cn"), false);
  assert.throws(() => endpointsFor("custom", "https://evil.example"), LarkitError);
  assert.equal(
    endpointsFor("custom", "https://evil.example", { allowUntrusted: true }).mcp,
    "https://evil.example/mcp",
  );
});
