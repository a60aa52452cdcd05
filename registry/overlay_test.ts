import assert from "node:assert/strict";
import { denoFiles } from "../cli/files.ts";
import { openRegistry } from "./index.ts";
import { MAX_OVERLAY_BYTES, refreshDue, refreshOverlay } from "./overlay.ts";
import type { OverlayDeps } from "./overlay_cache.ts";

function deps(warnings: string[], now = 1000): OverlayDeps {
  return {
    files: denoFiles(),
    cacheDir: Deno.makeTempDirSync(),
    now: () => now,
    warn: (m) => Promise.resolve(void warnings.push(m)),
  };
}

const reply = (body: unknown) => () => Promise.resolve(Response.json(body));
const widgets = {
  name: "calendar",
  servicePath: "/open-apis/calendar/v9",
  resources: {
    widgets: { methods: { list: { path: "widgets", httpMethod: "GET", accessTokens: ["user"] } } },
  },
};

Deno.test("a valid overlay replaces whole services by name; hostile services are skipped with a warning", async () => {
  const warnings: string[] = [];
  const d = deps(warnings);
  const hostile = [
    { name: "../x", servicePath: "/open-apis/x", resources: {} },
    { name: "y", servicePath: "/etc/passwd", resources: {} },
    {
      name: "z",
      servicePath: "/open-apis/z",
      resources: { r: { methods: { m: { path: "../../a", httpMethod: "GET" } } } },
    },
  ];
  const result = await refreshOverlay(
    d,
    reply({ data: { version: "v2", services: [widgets, ...hostile] } }),
    "http://h/m",
  );
  assert.equal(result, "updated");
  assert.equal(warnings.length, 3);
  const registry = await openRegistry(d);
  assert.match(registry.version, /\+overlay:v2$/);
  assert.ok(await registry.findMethod("calendar", "widgets", "list"));
  assert.equal(await registry.findMethod("calendar", "events", "list"), undefined, "whole service replaced");
  assert.ok(await registry.findMethod("im", "messages", "create"), "other services stay baseline");
});

Deno.test("corrupt JSON, oversized bodies and HTTP errors leave the baseline in force, with a warning", async () => {
  for (
    const fetcher of [
      () => Promise.resolve(new Response("{not json", { headers: { "content-type": "application/json" } })),
      () =>
        Promise.resolve(new Response("x", { headers: { "content-length": String(MAX_OVERLAY_BYTES + 1) } })),
      () => Promise.resolve(new Response("nope", { status: 500 })),
      () => Promise.reject(new TypeError("connection refused")),
    ]
  ) {
    const warnings: string[] = [];
    const d = deps(warnings);
    assert.equal(await refreshOverlay(d, fetcher, "http://h/m"), "failed");
    assert.equal(warnings.length, 1);
    assert.ok(await (await openRegistry(d)).findMethod("calendar", "events", "list"));
  }
});

Deno.test("the endpoint is asked at most once per TTL, even when it fails", async () => {
  const d = deps([]);
  assert.equal(await refreshDue(d, 60_000), true);
  await refreshOverlay(d, () => Promise.reject(new TypeError("down")), "http://h/m");
  assert.equal(await refreshDue(d, 60_000), false);
  assert.equal(await refreshDue({ ...d, now: () => 1000 + 60_000 }, 60_000), true);
});

Deno.test("'not modified' keeps the cached overlay", async () => {
  const d = deps([]);
  await refreshOverlay(d, reply({ data: { version: "v2", services: [widgets] } }), "http://h/m");
  let asked = "";
  const result = await refreshOverlay(d, (url) => {
    asked = url;
    return Promise.resolve(Response.json({ data: { version: "v2", services: null } }));
  }, "http://h/m");
  assert.equal(result, "not-modified");
  assert.match(asked, /data_version=v2/);
  assert.ok(await (await openRegistry(d)).findMethod("calendar", "widgets", "list"));
});
