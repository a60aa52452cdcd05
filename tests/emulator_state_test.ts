/**
 * The emulator answers from its state, through larkit end to end: what a request stored is what later answers
 * say (members, pins, reactions, ids, all-day dues), seeded objects are whole (a base's tables and fields, a
 * document's blocks), search and suggestion read the emulator's own data, an object made by one API works with
 * the others, and literal paths win over parameter routes. Each test is one defect of the emulator that used
 * to answer with invented data.
 */
import assert from "node:assert/strict";
import { openRegistry } from "../registry/index.ts";
import { exampleRequest } from "../registry/example.ts";
import { fixtures } from "./helpers/emulator.ts";
import { type Larkit, withSuite } from "./helpers/suite_session.ts";

const { USERS, CHATS, DOCS, BASE, CALENDARS } = fixtures;
/** The first message of the seeded engineering chat's history. */
const MESSAGE = `om_${0xdc13264520392913n.toString(16)}993dfd30b0a6f1ac`;

/** A generated method's argv run as the bot, `params` its path and query parameters. */
function botCall(
  service: string,
  resource: string,
  method: string,
  params: Record<string, unknown>,
): string[] {
  return [service, resource, method, "--params", JSON.stringify(params), "--as", "bot"];
}

async function data<T = Record<string, unknown>>(larkit: Larkit, args: string[], asUser = false): Promise<T> {
  const r = await larkit(args, { asUser });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  return r.json<{ data: T }>().data;
}

Deno.test("im chat.members create: a member the tenant has is added (no invalid ids); one it lacks is refused or reported", async () => {
  await withSuite(async (_emu, larkit) => {
    const nobody = "ou_00000000000000000000000000000000";
    const add = (query: Record<string, unknown>, ids: string[]) =>
      larkit([
        "im",
        "chat.members",
        "create",
        "--params",
        JSON.stringify({ chat_id: CHATS.launch, ...query }),
        "--data",
        JSON.stringify({ id_list: ids }),
        "--as",
        "bot",
      ]);
    const members = async () =>
      (await data<{ items: { member_id: string }[] }>(larkit, [
        "im",
        "chat.members",
        "get",
        "--params",
        JSON.stringify({ chat_id: CHATS.launch }),
        "--as",
        "bot",
      ])).items.map((m) => m.member_id);
    // A valid member alone: added, nothing invalid, nothing missing.
    const clean = await add({}, [USERS.dan.open_id]);
    assert.equal(clean.code, 0, clean.stderr);
    const ok = clean.json<{ data: { invalid_id_list: string[]; not_existed_id_list: string[] } }>().data;
    assert.deepEqual([ok.invalid_id_list, ok.not_existed_id_list], [[], []]);
    assert.ok((await members()).includes(USERS.dan.open_id));
    // By default an id that names nobody fails the request, and no one is added.
    const refused = await add({}, [USERS.bob.open_id, nobody]);
    assert.equal((refused.errorJson().error as { code?: number }).code, 232024);
    assert.ok(!(await members()).includes(USERS.bob.open_id));
    // succeed_type 1 adds whom it can and reports the rest.
    const r = await add({ succeed_type: 1 }, [USERS.bob.open_id, nobody]);
    assert.equal(r.code, 0, r.stderr);
    const added = r.json<{ data: { invalid_id_list?: string[]; not_existed_id_list?: string[] } }>().data;
    assert.deepEqual(added.invalid_id_list ?? [], []);
    assert.deepEqual(added.not_existed_id_list, [nobody]);
    const ids = await members();
    assert.ok(ids.includes(USERS.bob.open_id), ids.join(","));
    assert.ok(!ids.includes(nobody));
  });
});

Deno.test("approval instances create answers a new instance code that instances get then finds", async () => {
  await withSuite(async (_emu, larkit) => {
    const m = (await (await openRegistry()).findMethod("approval", "instances", "create"))!;
    const made = await data<{ instance_code: string }>(larkit, [
      "approval",
      "instances",
      "create",
      "--data",
      JSON.stringify(exampleRequest(m).data),
      "--as",
      "bot",
    ]);
    assert.match(made.instance_code, /^\d{19}$/);
    assert.doesNotMatch(made.instance_code, /sample/);
    const got = await larkit(botCall("approval", "instances", "get", { instance_id: made.instance_code }));
    assert.equal(got.code, 0, got.stderr);
    const other = await larkit(
      botCall("approval", "instances", "get", { instance_id: "7000000000000000001" }),
    );
    assert.equal(other.errorJson().error.subtype, "not_found");
  });
});

Deno.test("im pins create answers the pinned message's chat; the chat's pins list it", async () => {
  await withSuite(async (_emu, larkit) => {
    const { pin } = await data<{ pin: { message_id: string; chat_id: string; operator_id: string } }>(
      larkit,
      [
        "im",
        "pins",
        "create",
        "--data",
        JSON.stringify({ message_id: MESSAGE }),
        "--as",
        "bot",
      ],
    );
    assert.deepEqual([pin.message_id, pin.chat_id], [MESSAGE, CHATS.engineering]);
    const pins = await data<{ items: { message_id: string }[] }>(
      larkit,
      botCall("im", "pins", "list", { chat_id: CHATS.engineering }),
    );
    assert.deepEqual(pins.items.map((p) => p.message_id), [MESSAGE]);
  });
});

Deno.test("a reaction added to a message is in the message's reaction list, with its operator", async () => {
  await withSuite(async (_emu, larkit) => {
    const made = await data<{ reaction_id: string; operator: { operator_id: string } }>(larkit, [
      "im",
      "message.reactions",
      "create",
      "--params",
      JSON.stringify({ message_id: MESSAGE }),
      "--data",
      JSON.stringify({ reaction_type: { emoji_type: "THUMBSUP" } }),
    ], true);
    assert.equal(made.operator.operator_id, USERS.alice.open_id);
    const list = await data<{ items: { reaction_id: string; reaction_type: { emoji_type: string } }[] }>(
      larkit,
      [
        "im",
        "message.reactions",
        "list",
        "--params",
        JSON.stringify({ message_id: MESSAGE }),
      ],
      true,
    );
    assert.deepEqual(list.items.map((r) => [r.reaction_id, r.reaction_type.emoji_type]), [
      [made.reaction_id, "THUMBSUP"],
    ]);
  });
});

Deno.test("the seeded base lists its table and the fields its records use", async () => {
  await withSuite(async (_emu, larkit) => {
    const tables = await data<{ table_id: string; name: string }[]>(larkit, [
      "base",
      "+table-list",
      "--base-token",
      BASE.app,
    ]);
    assert.deepEqual(tables.map((t) => [t.table_id, t.name]), [[BASE.table, "Issues"]]);
    const fields = await data<{ field_name: string }[]>(larkit, [
      "base",
      "+field-list",
      "--base-token",
      BASE.app,
      "--table-id",
      BASE.table,
    ]);
    assert.deepEqual(fields.map((f) => f.field_name), ["Title", "Status", "Priority"]);
  });
});

Deno.test("the seeded document's blocks say what its text says", async () => {
  await withSuite(async (_emu, larkit) => {
    const { content } = await data<{ content: string }>(
      larkit,
      botCall("docx", "documents", "raw_content", { document_id: DOCS.handbook }),
    );
    const { items } = await data<{ items: Record<string, unknown>[] }>(larkit, [
      "docx",
      "document.blocks",
      "list",
      "--params",
      JSON.stringify({ document_id: DOCS.handbook }),
      "--as",
      "bot",
    ]);
    assert.equal(items[0].block_type, 1, "the page block first");
    const texts = items.slice(1).map((b) => {
      const body = Object.values(b).find((v) => typeof v === "object" && v && "elements" in v) as {
        elements: { text_run: { content: string } }[];
      };
      return body.elements.map((e) => e.text_run.content).join("");
    });
    assert.deepEqual(texts, content.split("\n").filter((l) => l.trim()));
    assert.deepEqual((items[0].children as string[]).length, texts.length);
  });
});

Deno.test("a task due on a date comes back all-day; one due at a time does not", async () => {
  await withSuite(async (_emu, larkit) => {
    const day = await data<{ due: { is_all_day: boolean } }>(larkit, [
      "task",
      "+create",
      "--summary",
      "Ship it",
      "--due",
      "2026-11-30",
    ], true);
    assert.equal(day.due.is_all_day, true);
    const timed = await data<{ due: { is_all_day: boolean } }>(larkit, [
      "task",
      "+create",
      "--summary",
      "Call",
      "--due",
      "2026-11-30T15:00:00Z",
    ], true);
    assert.equal(timed.due.is_all_day, false);
  });
});

Deno.test("drive +member-add then +member-list shows the member added", async () => {
  await withSuite(async (_emu, larkit) => {
    const token = ["--token", DOCS.handbook];
    await data(larkit, [
      "drive",
      "+member-add",
      ...token,
      "--member-id",
      USERS.bob.open_id,
      "--member-type",
      "openid",
      "--perm",
      "edit",
      "--yes",
    ]);
    const list = await data<{ items: { member_id: string; perm: string }[] } | { member_id: string }[]>(
      larkit,
      ["drive", "+member-list", ...token],
    );
    const items = Array.isArray(list) ? list : list.items;
    assert.deepEqual(items.map((m) => m.member_id), [USERS.bob.open_id]);
  });
});

Deno.test("calendar +suggestion offers the free time around the attendees' busy events", async () => {
  await withSuite(async (_emu, larkit) => {
    // Today (2026-11-23, UTC) Alice and Carol are in the design review 14:00-15:00; Alice's 1:1 is at 16:00.
    const out = await data<{ start_time: string; end_time: string }[]>(larkit, [
      "calendar",
      "+suggestion",
      "--start",
      "2026-11-23T13:00:00Z",
      "--end",
      "2026-11-23T17:00:00Z",
      "--duration-minutes",
      "60",
      "--attendee-ids",
      USERS.alice.open_id,
    ], true);
    const starts = out.map((s) => Date.parse(s.start_time));
    assert.deepEqual(starts, [Date.parse("2026-11-23T13:00:00Z"), Date.parse("2026-11-23T15:00:00Z")]);
  });
});

Deno.test("calendar +search-event finds the calendar's events by words of their title", async () => {
  await withSuite(async (_emu, larkit) => {
    const hits = await data<{ summary: string; event_id: string }[]>(larkit, [
      "calendar",
      "+search-event",
      "--query",
      "design review",
      "--calendar-id",
      CALENDARS.alice,
    ], true);
    assert.deepEqual(hits.map((e) => e.event_id), [fixtures.seedIdOfEvent("alice", "design_review")]);
    const none = await data<unknown[]>(
      larkit,
      ["calendar", "+search-event", "--query", "nothing like it"],
      true,
    );
    assert.deepEqual(none, []);
  });
});

Deno.test("drive +search and docs +search match titles and text of seeded and created documents", async () => {
  await withSuite(async (_emu, larkit) => {
    const titles = async (service: string, query: string) =>
      (await data<{ title_highlighted: string }[]>(larkit, [service, "+search", "--query", query], true))
        .map((h) => h.title_highlighted);
    assert.deepEqual(await titles("drive", "handbook"), ["Team handbook"]);
    // A word of the document's text, not its title.
    assert.deepEqual(await titles("docs", "on-call"), ["Team handbook"]);
    await data(larkit, ["sheets", "+workbook-create", "--title", "Budget 2027"], true);
    assert.deepEqual(await titles("drive", "budget 2027"), ["Budget 2027"]);
    assert.deepEqual(await titles("docs", "no such words"), []);
  });
});

Deno.test("a spreadsheet made by sheets +workbook-create takes +append and reads back", async () => {
  await withSuite(async (_emu, larkit) => {
    const made = await data<{ spreadsheet: { spreadsheet_token: string } }>(larkit, [
      "sheets",
      "+workbook-create",
      "--title",
      "Expenses",
    ]);
    const token = made.spreadsheet.spreadsheet_token;
    const { sheets } = await data<{ sheets: { sheet_id: string }[] }>(larkit, [
      "sheets",
      "spreadsheet.sheets",
      "query",
      "--params",
      JSON.stringify({ spreadsheet_token: token }),
      "--as",
      "bot",
    ]);
    const range = `${sheets[0].sheet_id}!A1:B1`;
    await data(larkit, [
      "sheets",
      "+append",
      "--spreadsheet-token",
      token,
      "--range",
      range,
      "--values",
      '[["Taxi", 42]]',
    ]);
    const read = await data<{ valueRange?: { values: unknown[][] }; values?: unknown[][] }>(larkit, [
      "sheets",
      "+cells-get",
      "--spreadsheet-token",
      token,
      "--range",
      range,
    ]);
    assert.deepEqual(read.valueRange?.values ?? read.values, [["Taxi", 42]]);
  });
});

Deno.test("GET contact/v3/users/batch is the batch, not a user named batch", async () => {
  await withSuite(async (_emu, larkit) => {
    const { items } = await data<{ items: { open_id: string }[] }>(
      larkit,
      botCall("contact", "users", "batch", { user_ids: [USERS.bob.open_id, USERS.carol.open_id] }),
    );
    assert.deepEqual(items.map((u) => u.open_id), [USERS.bob.open_id, USERS.carol.open_id]);
  });
});

Deno.test("department 0 (the root) is found by departments get and by users find_by_department alike", async () => {
  await withSuite(async (_emu, larkit) => {
    const { department } = await data<{ department: { department_id: string } }>(
      larkit,
      botCall("contact", "departments", "get", { department_id: "0" }),
    );
    assert.equal(department.department_id, "0");
    const users = await larkit(botCall("contact", "users", "find_by_department", { department_id: "0" }));
    assert.equal(users.code, 0, users.stderr);
    const missing = await larkit(botCall("contact", "departments", "get", { department_id: "od-nowhere" }));
    assert.equal(
      (missing.errorJson().error as { code?: number }).code,
      40011,
      "the suite's department not found",
    );
  });
});

Deno.test("a setting written to a chat is what reading it answers (a singleton keeps its state)", async () => {
  await withSuite(async (_emu, larkit) => {
    const at = ["--params", JSON.stringify({ chat_id: CHATS.engineering }), "--as", "bot"];
    await data(larkit, [
      "im",
      "chat.moderation",
      "update",
      ...at,
      "--data",
      JSON.stringify({ moderation_setting: "only_owner" }),
    ]);
    const got = await data<{ moderation_setting: string }>(larkit, ["im", "chat.moderation", "get", ...at]);
    assert.equal(got.moderation_setting, "only_owner");
    const other = await data<{ moderation_setting?: string }>(larkit, [
      "im",
      "chat.moderation",
      "get",
      "--params",
      JSON.stringify({ chat_id: CHATS.random }),
      "--as",
      "bot",
    ]);
    assert.equal(other.moderation_setting, undefined, "a chat never set says nothing it does not know");
  });
});

Deno.test("a folder made by drive +create-folder lists what is put in it; an unknown folder is not found", async () => {
  await withSuite(async (_emu, larkit) => {
    const made = await data<{ folder_token: string }>(larkit, [
      "drive",
      "+create-folder",
      "--name",
      "Reports",
    ]);
    await data(larkit, [
      "sheets",
      "+workbook-create",
      "--title",
      "Q4",
      "--folder-token",
      made.folder_token,
    ]);
    const root = await data<{ files: { token: string; type: string; name: string }[] }>(larkit, [
      "drive",
      "files",
      "list",
      "--as",
      "bot",
    ]);
    assert.ok(
      root.files.some((f) => f.token === made.folder_token && f.type === "folder" && f.name === "Reports"),
    );
    const inside = await data<{ files: { name: string; type: string }[] }>(
      larkit,
      botCall("drive", "files", "list", { folder_token: made.folder_token }),
    );
    assert.deepEqual(inside.files.map((f) => [f.name, f.type]), [["Q4", "sheet"]]);
    const nowhere = await larkit(botCall("drive", "files", "list", { folder_token: "fldcnNowhere0001" }));
    assert.equal(nowhere.errorJson().error.subtype, "not_found");
  });
});

Deno.test("the seeded spreadsheet's info is its own: title and owner, and it is in its folder", async () => {
  await withSuite(async (_emu, larkit) => {
    const info = await larkit([
      "sheets",
      "spreadsheets",
      "get",
      "--params",
      JSON.stringify({
        spreadsheet_token: fixtures.SHEETS.budget,
      }),
      "--as",
      "bot",
    ]);
    assert.equal(info.code, 0, info.stderr);
    const { spreadsheet } = info.json<{ data: { spreadsheet: { title: string; owner_id: string } } }>().data;
    assert.deepEqual([spreadsheet.title, spreadsheet.owner_id], ["Team budget", USERS.alice.open_id]);
    const root = await data<{ files: { token: string; type: string }[] }>(larkit, [
      "drive",
      "files",
      "list",
      "--as",
      "bot",
    ]);
    assert.ok(root.files.some((f) => f.token === fixtures.SHEETS.budget && f.type === "sheet"));
  });
});

Deno.test("the root department's children are the seeded departments under it", async () => {
  await withSuite(async (_emu, larkit) => {
    const { items } = await data<{ items: { department_id: string; name: string }[] }>(
      larkit,
      botCall("contact", "departments", "children", { department_id: "0" }),
    );
    assert.deepEqual(items.map((d) => d.department_id), [
      fixtures.DEPARTMENTS.engineering,
      fixtures.BIG_DEPARTMENT.id,
    ]);
  });
});
