/**
 * The overlay speaks the suite's real `api_definition` format: the reference CLI's own example document, served
 * by the emulator, refreshes the overlay and reads back as registry methods; and every baseline service written
 * in that format (`toSuiteMeta`) parses back to the same methods.
 */
import assert from "node:assert/strict";
import { denoFiles } from "../cli/files.ts";
import { startEmulator } from "../sandbox/server.ts";
import { baselineIndex, loadBaselineService } from "./baseline_data.js";
import { jsonSchemaFromFields } from "./fields.ts";
import { openRegistry } from "./index.ts";
import { toSuiteMeta } from "./meta_format.ts";
import { methodsOf } from "./method.ts";
import { refreshOverlay } from "./overlay.ts";
import type { OverlayDeps } from "./overlay_cache.ts";
import { ServiceSpecSchema } from "./schema.ts";
import { requestSchemasOf, responseShapeOf } from "./shapes.ts";

/** Verbatim from the reference CLI's metadata example (lark-cli.md §9). */
const REFERENCE_DOCUMENT = {
  version: "2026.04.18",
  services: [
    {
      name: "calendar",
      version: "v4",
      title: "Calendar",
      description: "...",
      servicePath: "/open-apis/calendar/v4",
      resources: {
        events: {
          methods: {
            instance_view: {
              id: "calendar.events.instance_view",
              path: "calendars/{calendar_id}/events/instance_view",
              httpMethod: "GET",
              description: "查询日程视图",
              parameters: {
                calendar_id: {
                  location: "path",
                  type: "string",
                  required: true,
                  description: "...",
                  example: "primary",
                },
                start_time: { location: "query", type: "string", required: true },
                page_size: { location: "query", type: "integer", min: "1", max: "500" },
              },
              requestBody: {
                summary: { type: "string", required: true, properties: {}, options: [{ value: "a" }] },
              },
              responseBody: { items: { type: "array" } },
              accessTokens: ["user", "tenant"],
              scopes: ["calendar:calendar:readonly", "calendar:calendar.event:read"],
              requiredScopes: [],
              danger: false,
              docUrl: "https://open.feishu.cn/document/...",
              tips: ["..."],
            },
          },
        },
      },
    },
  ],
};

function deps(): OverlayDeps {
  return {
    files: denoFiles(),
    cacheDir: Deno.makeTempDirSync(),
    now: () => 1000,
    warn: () => Promise.resolve(),
  };
}

Deno.test("the suite's own api_definition document, served by the emulator, becomes the overlay", async () => {
  const emu = await startEmulator({ seed: false });
  try {
    emu.setOverlay(REFERENCE_DOCUMENT);
    const d = deps();
    const url = `${emu.url}/api/tools/open/api_definition?protocol=meta&client_version=0.1.0`;
    assert.equal(await refreshOverlay(d, (u, init) => fetch(u, init), url), "updated");
    const registry = await openRegistry(d);
    assert.match(registry.version, /\+overlay:2026\.04\.18$/);
    const m = await registry.findMethod("calendar", "events", "instance_view");
    assert.ok(m);
    assert.equal(m.path, "/open-apis/calendar/v4/calendars/{calendar_id}/events/instance_view");
    assert.deepEqual(m.identities, ["user", "bot"]);
    assert.equal(m.risk, "read");
    const schemas = requestSchemasOf(m);
    assert.deepEqual(schemas.query.properties?.page_size, { type: "integer", minimum: 1, maximum: 500 });
    assert.deepEqual(schemas.query.required, ["start_time"]);
    assert.deepEqual(schemas.body?.properties?.summary.enum, ["a"]);
    assert.deepEqual(await responseShapeOf(m), {
      type: "object",
      properties: { items: { type: "array" } },
    });
    // Not modified: the same version asked again answers `services: null`, and the cache stays.
    assert.equal(await refreshOverlay(d, (u, init) => fetch(u, init), url), "not-modified");
  } finally {
    await emu.stop();
  }
});

Deno.test("every baseline service written in the suite's format parses back to the same methods", async () => {
  for (const s of baselineIndex.services) {
    const spec = await loadBaselineService(s.name);
    const parsed = ServiceSpecSchema.parse(JSON.parse(JSON.stringify(toSuiteMeta(spec))));
    const before = methodsOf(spec);
    const after = methodsOf(parsed);
    assert.equal(after.length, before.length, s.name);
    before.forEach((b, i) => {
      const a = after[i];
      assert.equal(a.id, b.id);
      assert.equal(`${a.httpMethod} ${a.path}`, `${b.httpMethod} ${b.path}`);
      assert.deepEqual(a.identities, b.identities, b.id);
      // The suite's format says only `danger`; larkit's curated "read" for POST searches is not in it.
      assert.equal(a.risk === "high-risk-write", b.risk === "high-risk-write", b.id);
      const enums = (x: typeof a) =>
        JSON.stringify(
          jsonSchemaFromFields(x.parameters),
          (k, v) => k.includes("description") ? undefined : v,
        );
      assert.equal(enums(a), enums(b), b.id);
    });
  }
});
