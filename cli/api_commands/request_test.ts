import assert from "node:assert/strict";
import { LarkitError } from "../output/errors.ts";
import { openRegistry } from "../../registry/index.ts";
import { buildRequest } from "./request.ts";

const registry = await openRegistry();
const instanceView = (await registry.findMethod("calendar", "events", "instance_view"))!;
const opts = { uuid: () => "u-1" };

function validationMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LarkitError);
    assert.equal(e.type, "validation");
    assert.match(e.hint ?? "", /larkit schema calendar\.events\.instance_view|larkit schema/);
    return e.message;
  }
  throw new Error("expected a validation error");
}

Deno.test("path parameters are filled and query parameters kept", () => {
  const req = buildRequest(
    instanceView,
    { calendar_id: "cal 1", start_time: "1", end_time: "2" },
    undefined,
    opts,
  );
  assert.equal(req.path, "/open-apis/calendar/v4/calendars/cal%201/events/instance_view");
  assert.deepEqual(req.query, { end_time: "2", start_time: "1" });
});

Deno.test("missing, unknown and hostile parameters are validation errors naming the parameter", () => {
  assert.match(
    validationMessage(() => buildRequest(instanceView, { start_time: "1", end_time: "2" }, undefined, opts)),
    /calendar_id/,
  );
  assert.match(
    validationMessage(() => buildRequest(instanceView, { calendar_id: "c", end_time: "2" }, undefined, opts)),
    /start_time/,
  );
  assert.match(
    validationMessage(() =>
      buildRequest(instanceView, { calendar_id: "c", start_time: "1", end_time: "2", x: 1 }, undefined, opts)
    ),
    /unknown parameter: x/,
  );
  assert.match(
    validationMessage(() =>
      buildRequest(instanceView, { calendar_id: "../x", start_time: "1", end_time: "2" }, undefined, opts)
    ),
    /calendar_id/,
  );
  assert.match(
    validationMessage(() =>
      buildRequest(
        instanceView,
        { calendar_id: "c", start_time: "1", end_time: "2", user_id_type: "nope" },
        undefined,
        opts,
      )
    ),
    /allowed: user_id, union_id, open_id/,
  );
});

Deno.test("a write with a de-duplication field gets a generated key, so it is safe to retry", async () => {
  const create = (await registry.findMethod("im", "messages", "create"))!;
  const req = buildRequest(
    create,
    { receive_id_type: "chat_id" },
    { receive_id: "oc_1", msg_type: "text", content: "{}" },
    opts,
  );
  assert.deepEqual(req.idempotencyKey, { field: "uuid", location: "body", value: "u-1", generated: true });
  assert.equal((req.body as Record<string, unknown>).uuid, "u-1");
});

Deno.test("required body fields are checked", async () => {
  const create = (await registry.findMethod("im", "messages", "create"))!;
  assert.throws(
    () => buildRequest(create, { receive_id_type: "chat_id" }, { msg_type: "text", content: "{}" }, opts),
    /missing required body field: receive_id/,
  );
});
