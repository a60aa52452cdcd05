import assert from "node:assert/strict";
import { baselineIndex, loadBaselineService } from "./baseline_data.js";
import { RegistryIndexSchema, ServiceSpecSchema } from "./schema.ts";
import { openRegistry, type RunnableMethod } from "./index.ts";
import { expanded } from "../cli/resolve/node.ts";
import { rootNode } from "../cli/resolve/root.ts";
import { serviceNode } from "../cli/resolve/services.ts";
import { leaves } from "../cli/commands/catalogue.ts";
import { FIXED_NAMES } from "../cli/resolve/fixed_commands.ts";
import { createRunContext } from "../cli/context.ts";
import { testProvider } from "../cli/test_provider.ts";
import { resolveSchemaPath } from "../cli/commands/schema.ts";
import { describeMethod } from "./describe.ts";

Deno.test("every baseline file validates against the registry schemas", async () => {
  RegistryIndexSchema.parse(baselineIndex);
  for (const s of baselineIndex.services) {
    const spec = ServiceSpecSchema.parse(await loadBaselineService(s.name));
    assert.equal(spec.name, s.name);
  }
});

Deno.test("a generated command exists for every method in the baseline JSON, and schema describes each", async () => {
  const ctx = createRunContext(testProvider(), { debug: false, color: false, offline: true });
  const registry = await openRegistry();
  let inJson = 0;
  let commands = 0;
  for (const s of baselineIndex.services) {
    const raw = await loadBaselineService(s.name);
    const methods = Object.values(raw.resources).flatMap((r) => Object.keys(r.methods));
    assert.equal(methods.length, s.methods, `index count of ${s.name}`);
    // A fixed command of the service's name wins (`auth`): its methods are reached through `api` and `schema`.
    if (FIXED_NAMES.has(s.name)) continue;
    inJson += methods.length;
    const service = await serviceNode(ctx, s.name, rootNode(ctx));
    const built = service ? leaves(await expanded(service)).filter((l) => l.layer === "api") : [];
    commands += built.length;
    for (const leaf of built) {
      const id = `${s.name}.${leaf.parent!.name}.${leaf.name}`;
      const target = await resolveSchemaPath(registry, id);
      assert.equal(target.kind, "method", id);
      if (target.kind === "method") assert.equal(describeMethod(target.method).id, id);
    }
  }
  assert.equal(commands, inJson);
  assert.ok(inJson >= 1250, `expected the whole suite, got ${inJson}`);
});

Deno.test("names follow lark-cli: calendar events instance_view, calendar calendars list, event.attendees", async () => {
  const registry = await openRegistry();
  for (
    const [s, r, m] of [
      ["calendar", "events", "instance_view"],
      ["calendar", "calendars", "list"],
      ["calendar", "event.attendees", "list"],
      ["im", "chat.members", "get"],
      ["drive", "files", "upload_all"],
      ["drive", "files", "download"],
    ]
  ) assert.ok(await registry.findMethod(s, r, m), `${s} ${r} ${m}`);
  const primary = await registry.findMethod("calendar", "calendars", "primary");
  assert.equal(primary?.risk, "read", "curated override wins over POST → write");
  const del = await registry.findMethod("calendar", "events", "delete");
  assert.equal(del?.risk, "high-risk-write");
  assert.deepEqual(del?.identities, ["user", "bot"]);
  const create = await registry.findMethod("im", "messages", "create");
  assert.deepEqual(create?.idempotency, { field: "uuid", location: "body" });
  assert.ok(create?.scopes.includes("im:message:send_as_bot"));
});

Deno.test("each method reads the same from its resource's runnable file as from the whole service", async () => {
  // Only description text is left out, at every depth of the request's and response's fields.
  const fields = ({ parameters, requestBody, responseBody }: RunnableMethod) =>
    [parameters, requestBody, responseBody].map((f) => Object.keys(f ?? {}));
  const rest = ({ parameters: _p, requestBody: _q, responseBody: _r, ...others }: RunnableMethod) => others;
  // Two registries: one that has read a service whole answers `findRunnable` from that.
  const registry = await openRegistry();
  const runnables = await openRegistry();
  let methods = 0;
  for (const s of baselineIndex.services) {
    const raw = await loadBaselineService(s.name);
    for (const [resource, r] of Object.entries(raw.resources)) {
      for (const name of Object.keys(r.methods)) {
        const whole = await registry.findMethod(s.name, resource, name);
        const runnable = await runnables.findRunnable(s.name, resource, name);
        assert.ok(whole && runnable, `${s.name}.${resource}.${name}`);
        const { summary: _s, description: _d, descriptionZh: _z, ...wholeRunnable } = whole;
        assert.deepEqual(rest(runnable), rest(wholeRunnable), whole.id);
        assert.deepEqual(fields(runnable), fields(wholeRunnable), whole.id);
        methods++;
      }
    }
  }
  assert.ok(methods >= 1270, `expected the whole suite, got ${methods}`);
});

Deno.test("a resource that is not there, or cannot be one, is no runnable method", async () => {
  const registry = await openRegistry();
  for (
    const resource of [
      "nope",
      "../services/calendar",
      "calendars/../acls",
      "constructor",
      "__proto__",
      "",
      "a..b",
    ]
  ) {
    assert.equal(await registry.findRunnable("calendar", resource, "list"), undefined, resource);
  }
  assert.equal(await registry.findRunnable("calendar", "calendars", "nope"), undefined);
  assert.equal(await registry.findRunnable("nope", "calendars", "list"), undefined);
  assert.equal(
    (await registry.findRunnable("calendar", "event.attendees", "list"))?.id,
    "calendar.event.attendees.list",
  );
});

Deno.test("requests come from the official SDK's types: its methods, fields, required marks and enums", async () => {
  const registry = await openRegistry();
  // Methods only the SDK has are generated commands too.
  for (
    const [s, r, m] of [["im", "images", "get"], ["im", "files", "get"], ["calendar", "calendars", "mget"]]
  ) {
    assert.ok(await registry.findMethod(s, r, m), `${s} ${r} ${m}`);
  }
  const send = await registry.findMethod("im", "messages", "create");
  assert.equal(send?.parameters.receive_id_type?.required, true);
  assert.deepEqual(send?.parameters.receive_id_type?.enum, [
    "open_id",
    "user_id",
    "union_id",
    "email",
    "chat_id",
  ]);
  assert.deepEqual(Object.keys(send?.requestBody ?? {}).sort(), [
    "content",
    "msg_type",
    "receive_id",
    "uuid",
  ]);
  // Nested, as the SDK types it; the drafts API takes only `raw` (the SDK wins over a supplementary entry).
  const attendees = await registry.findMethod("calendar", "event.attendees", "create");
  assert.deepEqual(attendees?.requestBody?.attendees?.items?.properties?.type?.enum, [
    "user",
    "chat",
    "third_party",
    "resource",
  ]);
  const draft = await registry.findMethod("mail", "user_mailbox.drafts", "create");
  assert.deepEqual(Object.keys(draft?.requestBody ?? {}), ["raw"]);
  // Upload parts are files (multipart), typed `Buffer | fs.ReadStream` in the SDK.
  const image = await registry.findMethod("im", "images", "create");
  assert.equal(image?.requestBody?.image?.type, "file");
});
