/**
 * `larkit schema`: a method's response shape, pagination and examples built from real field names; the pretty
 * tree; a shortcut's flags, identities, scopes and risk; a service's listing with its shortcuts.
 */
import assert from "node:assert/strict";
import { runCli } from "./helpers/run_cli.ts";

const json = async (args: string[]) => {
  const r = await runCli(args);
  assert.equal(r.code, 0, r.stderr);
  return (r.json() as { data: Record<string, unknown> }).data;
};

Deno.test("schema <method> shows the response shape, pagination and a --jq example over real fields", async () => {
  const doc = await json(["schema", "im.messages.list"]);
  const schemas = doc.schemas as Record<string, { properties?: Record<string, { type?: string }> }>;
  assert.equal(schemas.response.properties?.items.type, "array");
  assert.deepEqual(doc.pagination, { pageToken: "page_token", pageSize: "page_size", listField: "items" });
  const examples = doc.examples as { cli: string; jq: string };
  assert.match(examples.cli, /^larkit im messages list --params '\{"container_id":/);
  const picked = /^\.data\.items\[\] \| \{(.+)\}$/.exec(examples.jq)![1].split(", ");
  const itemFields = Object.keys(
    (schemas.response.properties!.items as unknown as { items: { properties: object } }).items.properties,
  );
  for (const f of picked) assert.ok(itemFields.includes(f), `${f} is a real field`);
});

Deno.test("schema <method> --format pretty renders the body and response as trees", async () => {
  const r = await runCli(["schema", "calendar.events.create", "--format", "pretty"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Body \(--data\):$/m);
  assert.match(r.stdout, /^ {2}start_time {2,}object +required/m);
  assert.match(r.stdout, /^ {4}timestamp +string/m);
  assert.match(r.stdout, /^Response \(data\):$/m);
  assert.match(r.stdout, /^ {2}event +object/m);
  assert.match(r.stdout, /^Pagination: none$/m);
  const binary = await runCli(["schema", "drive.files.download", "--format", "pretty"]);
  assert.match(binary.stdout, /binary file \(use --output <path>\)/);
});

Deno.test("schema <service.+shortcut> shows its flags, identities, scopes and risk; the service lists it", async () => {
  const doc = await json(["schema", "im.+messages-send"]);
  assert.equal(doc.command, "larkit im +messages-send");
  assert.equal(doc.risk, "write");
  assert.deepEqual(doc.identities, ["bot", "user"]);
  const flags = doc.flags as { name: string; kind: string }[];
  assert.ok(flags.some((f) => f.name === "--chat-id" && f.kind === "string"));
  const pretty = await runCli(["schema", "im.+messages-send", "--format", "pretty"]);
  assert.match(pretty.stdout, /^Flags:$/m);
  const service = await json(["schema", "im"]);
  assert.ok((service.shortcuts as { command: string }[]).some((s) => s.command === "+messages-send"));
  const unknown = await runCli(["schema", "im.+nope"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown shortcut: im\.\+nope/);
});

Deno.test("a shortcut's schema lists the methods its plan calls, matched to the registry", async () => {
  const agenda = await json(["schema", "calendar.+agenda"]);
  const calls = agenda.calls as { httpMethod: string; path: string; method?: string }[];
  assert.ok(calls.some((c) => c.method === "calendar.events.instance_view"), JSON.stringify(calls));
  // A supplementary entry (registry/supplementary/search_v1.json) stands for the shortcut's own request.
  const search = await json(["schema", "contact.+search-user"]);
  assert.deepEqual(search.calls, [{
    httpMethod: "GET",
    path: "/open-apis/search/v1/user",
    method: "search.user.list",
  }]);
  const docs = await json(["schema", "docs.+create"]);
  assert.deepEqual((docs.calls as { mcpTool?: string }[]).map((c) => c.mcpTool), ["create-doc"]);
});

Deno.test("schema <method> shows the request the SDK types: path, query and body, required, enums, closed objects", async () => {
  const doc = await json(["schema", "im.messages.create"]);
  type Node = {
    properties?: Record<string, Node>;
    required?: string[];
    enum?: unknown[];
    additionalProperties?: unknown;
  };
  const { query, body } = doc.schemas as Record<string, Node>;
  assert.deepEqual(query.required, ["receive_id_type"]);
  assert.deepEqual(query.properties?.receive_id_type.enum, [
    "open_id",
    "user_id",
    "union_id",
    "email",
    "chat_id",
  ]);
  assert.equal(query.additionalProperties, false);
  assert.deepEqual(body.required?.sort(), ["content", "msg_type", "receive_id"]);
  assert.equal(body.additionalProperties, false);
  // A method only the SDK has is a command with its request schema too.
  const image = await json(["schema", "im.images.get"]);
  assert.deepEqual((image.schemas as Record<string, Node>).path.required, ["image_key"]);
});
