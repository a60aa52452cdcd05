/**
 * `application +slash-command-*` end to end against the emulator's generic handler for the supplementary
 * application v7 entries: create, a taken name refused then forced into an update, list, update and delete by
 * name, dry runs that send nothing, and bad input.
 */
import assert from "node:assert/strict";
import { commandName, i18nOf } from "../shortcuts/application/slash_commands.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

interface Cmd {
  command_id: string;
  command: string;
  description: string;
  description_i18n?: Record<string, string>;
  icon_key?: string;
}

Deno.test("application slash commands: create, refuse a taken name, --force updates, list, update, delete", async () => {
  await withSuite(async (emu, larkit) => {
    const create = [
      "application",
      "+slash-command-create",
      "--command",
      "/deploy",
      "--description",
      "Deploy",
    ];
    emu.clearRequests();
    const dry = await larkit([...create, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    const planned = dry.json<{ data: { api: { method: string; body?: unknown }[] } }>().data.api;
    assert.deepEqual(planned.map((a) => a.method), ["GET", "POST"]);
    assert.deepEqual(planned[1].body, { command: "deploy", description: "Deploy" });
    assert.deepEqual(emu.requests(), []);

    const made = await larkit(create);
    assert.equal(made.code, 0, made.stderr);
    const id = made.json<{ data: Cmd }>().data.command_id;
    const taken = await larkit(create);
    assert.equal(taken.code, 2);
    assert.match(
      taken.errorJson().error.message,
      new RegExp(`already has a slash command "deploy" \\(${id}\\)`),
    );
    const forced = await larkit([...create.slice(0, 4), "--description", "Ship it", "--force"]);
    assert.equal(forced.json<{ data: Cmd & { updated: boolean } }>().data.updated, true);

    const update = [
      "application",
      "+slash-command-update",
      "--command",
      "deploy",
      "--description-i18n",
      "zh_cn=部署,en_us=Deploy",
    ];
    assert.equal((await larkit(update)).code, 0);
    const list = await larkit(["application", "+slash-command-list"]);
    const cmds = list.json<{ data: Cmd[]; meta: { count: number } }>();
    assert.equal(cmds.meta.count, 1);
    assert.deepEqual(
      [cmds.data[0].command_id, cmds.data[0].description, cmds.data[0].description_i18n],
      [id, "Ship it", { zh_cn: "部署", en_us: "Deploy" }],
    );

    emu.clearRequests();
    const del = ["application", "+slash-command-delete", "--command", "deploy"];
    const dryDel = await larkit([...del, "--dry-run"]);
    assert.deepEqual(
      dryDel.json<{ data: { api: { method: string; url: string }[] } }>().data.api.map((a) => a.method),
      ["GET", "DELETE"],
    );
    assert.deepEqual(emu.requests(), []);
    const unconfirmed = await larkit(del);
    assert.notEqual(unconfirmed.code, 0);
    assert.equal(
      (await larkit(["application", "+slash-command-list"])).json<{ meta: { count: number } }>().meta.count,
      1,
    );
    const deleted = await larkit([...del, "--yes"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json<{ data: unknown }>().data, { command_id: id, deleted: true });
    const empty = await larkit(["application", "+slash-command-list", "--format", "pretty"]);
    assert.equal(empty.stdout, "The app has no slash commands.\n");
  });
});

Deno.test("application slash commands: bad input is refused before anything is sent", async () => {
  await withSuite(async (emu, larkit) => {
    const cases: [string[], RegExp][] = [
      [["+slash-command-create", "--command", "deploy now", "--description", "x"], /1-32 letters/],
      [["+slash-command-create", "--command", "deploy"], /--description is required/],
      [["+slash-command-update", "--command", "deploy"], /nothing to change/],
      [["+slash-command-update", "--command-id", "1", "--command", "x", "--description", "d"], /exactly one/],
      [["+slash-command-update", "--command-id", "1", "--description-i18n", "fr_fr=x"], /locale=text/],
      [["+slash-command-delete", "--yes"], /exactly one of --command-id and --command/],
    ];
    for (const [argv, message] of cases) {
      const r = await larkit(["application", ...argv]);
      assert.equal(r.code, 2, argv.join(" "));
      assert.match(r.errorJson().error.message, message);
    }
    const missing = await larkit(["application", "+slash-command-delete", "--command", "nope", "--yes"]);
    assert.match(missing.errorJson().error.message, /no slash command named "nope"/);
    assert.ok(suiteCalls(emu).every((c) => c.method === "GET"), "only the lookup was sent");
  });
});

Deno.test("commandName and i18nOf parse names and locale pairs", () => {
  assert.equal(commandName("/deploy"), "deploy");
  assert.deepEqual(i18nOf("zh_cn=部署, ja_jp=デプロイ"), { zh_cn: "部署", ja_jp: "デプロイ" });
  assert.equal(i18nOf(undefined), undefined);
  assert.throws(() => i18nOf("zh_cn"), /locale=text/);
});
