import assert from "node:assert/strict";
import { Command } from "commander";
import { baselineIndex, loadBaselineService } from "./baseline_data.js";
import { RegistryIndexSchema, ServiceSpecSchema } from "./schema.ts";
import { openRegistry } from "./index.ts";
import { registrySource } from "../cli/api_commands/source.ts";
import { createRunContext } from "../cli/context.ts";
import { testProvider } from "../cli/provider.ts";
import { resolveSchemaPath } from "../cli/commands/schema.ts";
import { describeMethod } from "./describe.ts";

function leaves(cmd: Command): Command[] {
  return cmd.commands.length ? (cmd.commands as Command[]).flatMap(leaves) : [cmd];
}

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
    inJson += methods.length;
    const serviceCmd = new Command(s.name);
    await registrySource.register(serviceCmd, s.name, ctx);
    const built = leaves(serviceCmd);
    commands += built.length;
    for (const leaf of built) {
      const id = `${s.name}.${leaf.parent!.name()}.${leaf.name()}`;
      const target = await resolveSchemaPath(registry, id);
      assert.equal(target.kind, "method", id);
      if (target.kind === "method") assert.equal(describeMethod(target.method).id, id);
    }
  }
  assert.equal(commands, inJson);
  assert.ok(inJson >= 1270, `expected the whole suite, got ${inJson}`);
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
