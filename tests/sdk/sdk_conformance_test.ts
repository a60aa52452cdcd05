/**
 * The official Node SDK (`@larksuiteoapi/node-sdk`, the version the registry's types come from) as a client of
 * the emulator, written the way its README writes it: `new lark.Client({appId, appSecret, domain})` fetching its
 * own tenant token, plain calls, `lark.withUserAccessToken`, `listWithIterator`, uploads as a Buffer (a part
 * without a file name) and as a stream, downloads through `writeFile`/`getReadableStream`, and refusals whose
 * suite code the SDK surfaces. Every object read is created by the test. Every successful answer is checked
 * against the SDK's declared response type; the test prints how many methods and services it reached and fails
 * below 60 / 12.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import * as lark from "@larksuiteoapi/node-sdk";
import { fixtures, userToken, withEmulator } from "../helpers/emulator.ts";
import { Conformance } from "./conformance.ts";

const { USERS, CALENDARS, DEPARTMENTS, DOCS, BASE, SHEETS } = fixtures;

async function bytesOf(stream: Readable): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of stream) {
    chunks.push(typeof c === "string" ? new TextEncoder().encode(c) : c);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** A small PNG (1x1) and some bytes that are not valid UTF-8, so a lossy text round trip would show. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };
const BINARY = Uint8Array.from({ length: 3000 }, (_, i) => (i * 131 + 7) % 256);

Deno.test("the official SDK against the emulator: 60+ methods, 12+ services, every answer in its declared type", async () => {
  await withEmulator({}, async (emu) => {
    const tmp = await Deno.makeTempDir({ prefix: "larkit-sdk-" });
    const client = new lark.Client({
      appId: emu.app.appId,
      appSecret: emu.app.appSecret,
      domain: emu.url,
      // The refusals below are expected: the SDK would log each at error level (fatal reads as unset).
      logger: quiet,
    });
    const c = new Conformance(emu);
    const grant = await userToken(emu);
    const asUser = lark.withUserAccessToken(grant.access_token);
    const narrow = await userToken(emu, {
      scope: grant.scope.split(" ").filter((s) => !s.startsWith("task:")).join(
        " ",
      ),
    });
    const alice = USERS.alice.open_id;
    const bob = USERS.bob.open_id;

    try {
      // auth: the SDK fetched its tenant token by itself on the first call; asked for explicitly too.
      const tenant = await c.reach(() =>
        client.auth.tenantAccessToken.internal({
          data: { app_id: emu.app.appId, app_secret: emu.app.appSecret },
        }) as Promise<{ code?: number; tenant_access_token?: string }>
      );
      assert.ok(
        tenant?.code === 0 && tenant.tenant_access_token,
        `tenant token: ${JSON.stringify(tenant)}`,
      );
      await c.call(
        "authen.userInfo.get",
        () => client.authen.userInfo.get({}, asUser),
      );

      // contact
      await c.call(
        "contact.user.get",
        () =>
          client.contact.user.get({
            path: { user_id: bob },
            params: { user_id_type: "open_id" },
          }),
      );
      const seen = (await c.items(() =>
        client.contact.user.findByDepartmentWithIterator({
          params: { department_id: DEPARTMENTS.engineering, page_size: 2 },
        })
      )).map((u) => u.open_id ?? "");
      assert.ok(
        seen.includes(alice),
        `findByDepartment listed ${seen.join(",")}`,
      );
      await c.call(
        "contact.user.batchGetId",
        () =>
          client.contact.user.batchGetId({
            params: { user_id_type: "open_id" },
            data: { emails: [USERS.bob.email] },
          }),
      );
      await c.call(
        "contact.department.get",
        () =>
          client.contact.department.get({
            path: { department_id: DEPARTMENTS.engineering },
          }),
      );
      await c.call(
        "contact.department.children",
        () => client.contact.department.children({ path: { department_id: "0" } }),
      );

      // im: a chat made here, its members, messages, uploads and downloads
      const chat = await c.call("im.chat.create", () =>
        client.im.chat.create({
          params: { user_id_type: "open_id" },
          data: {
            name: "SDK conformance",
            description: "made by the test",
            user_id_list: [alice, bob],
          },
        }));
      const chatId = chat.data?.chat_id ?? "";
      assert.ok(chatId, `chat.create answered ${JSON.stringify(chat)}`);
      await c.call(
        "im.chat.get",
        () => client.im.chat.get({ path: { chat_id: chatId } }),
      );
      await c.call(
        "im.chat.update",
        () =>
          client.im.chat.update({
            path: { chat_id: chatId },
            data: { description: "renamed by the test" },
          }),
      );
      const members = (await c.items(() =>
        client.im.chatMembers.getWithIterator({
          path: { chat_id: chatId },
          params: { member_id_type: "open_id", page_size: 1 },
        })
      )).map((m) => m.member_id ?? "");
      assert.deepEqual(members.sort(), [alice, bob].sort());
      await c.call(
        "im.chat.list",
        () => client.im.chat.list({ params: { page_size: 50 } }),
      );
      await c.call(
        "im.chat.search",
        () => client.im.chat.search({ params: { query: "SDK conformance" } }),
      );

      const sent = await c.call(
        "im.message.create",
        () =>
          client.im.message.create({
            params: { receive_id_type: "chat_id" },
            data: {
              receive_id: chatId,
              msg_type: "text",
              content: JSON.stringify({ text: "hello from the SDK" }),
            },
          }),
      );
      const messageId = sent.data?.message_id ?? "";
      await c.call(
        "im.message.get",
        () => client.im.message.get({ path: { message_id: messageId } }),
      );
      await c.call("im.message.reply", () =>
        client.im.message.reply({
          path: { message_id: messageId },
          data: {
            msg_type: "text",
            content: JSON.stringify({ text: "a reply" }),
          },
        }));
      await c.call(
        "im.message.list",
        () =>
          client.im.message.list({
            params: { container_id_type: "chat", container_id: chatId },
          }),
      );
      await c.call(
        "im.message.create (as user)",
        () =>
          client.im.message.create({
            params: { receive_id_type: "chat_id" },
            data: {
              receive_id: chatId,
              msg_type: "text",
              content: JSON.stringify({ text: "from alice" }),
            },
          }, asUser),
      );

      // Uploads as the README writes them: a Buffer (a multipart part without filename=) and a stream.
      const image = await c.upload(
        "im.image.create (Buffer)",
        () =>
          client.im.image.create({
            data: { image_type: "message", image: Buffer.from(PNG) },
          }),
      );
      const imageKey = image?.image_key ?? "";
      const binPath = join(tmp, "upload.bin");
      await Deno.writeFile(binPath, BINARY);
      const file = await c.upload(
        "im.file.create (stream)",
        () =>
          client.im.file.create({
            data: {
              file_type: "stream",
              file_name: "upload.bin",
              file: fs.createReadStream(binPath),
            },
          }),
      );
      const fileKey = file?.file_key ?? "";
      const bufferFile = await c.upload(
        "im.file.create (Buffer)",
        () =>
          client.im.file.create({
            data: {
              file_type: "stream",
              file_name: "buffer.bin",
              file: Buffer.from(BINARY),
            },
          }),
      );
      assert.ok(
        bufferFile?.file_key,
        `buffer upload: ${JSON.stringify(bufferFile)}`,
      );

      const imageMessage = await c.call(
        "im.message.create (image)",
        () =>
          client.im.message.create({
            params: { receive_id_type: "chat_id" },
            data: {
              receive_id: chatId,
              msg_type: "image",
              content: JSON.stringify({ image_key: imageKey }),
            },
          }),
      );
      const fileMessage = await c.call(
        "im.message.create (file)",
        () =>
          client.im.message.create({
            params: { receive_id_type: "chat_id" },
            data: {
              receive_id: chatId,
              msg_type: "file",
              content: JSON.stringify({ file_key: fileKey }),
            },
          }),
      );
      // Downloads return the bytes uploaded.
      const resourcePath = join(tmp, "resource.bin");
      await c.reach(async () => {
        const res = await client.im.messageResource.get({
          path: {
            message_id: fileMessage.data?.message_id ?? "",
            file_key: fileKey,
          },
          params: { type: "file" },
        });
        await res.writeFile(resourcePath);
      });
      assert.deepEqual(await Deno.readFile(resourcePath), BINARY);
      const imageBytes = await c.reach(async () => {
        const res = await client.im.messageResource.get({
          path: {
            message_id: imageMessage.data?.message_id ?? "",
            file_key: imageKey,
          },
          params: { type: "image" },
        });
        return await bytesOf(res.getReadableStream());
      });
      assert.deepEqual(imageBytes, PNG);
      const fileBytes = await c.reach(async () =>
        await bytesOf(
          (await client.im.file.get({ path: { file_key: fileKey } }))
            .getReadableStream(),
        )
      );
      assert.deepEqual(fileBytes, BINARY);
      const imagePath = join(tmp, "image.png");
      await c.reach(async () => {
        await (await client.im.image.get({ path: { image_key: imageKey } }))
          .writeFile(imagePath);
      });
      assert.deepEqual(await Deno.readFile(imagePath), PNG);

      // Reactions: created, listed (through the iterator), deleted.
      const reaction = await c.call(
        "im.messageReaction.create",
        () =>
          client.im.messageReaction.create({
            path: { message_id: messageId },
            data: { reaction_type: { emoji_type: "THUMBSUP" } },
          }),
      );
      const reactions = (await c.items(() =>
        // The SDK declares this iterator's pages loosely ({}); the items are reactions.
        client.im.messageReaction.listWithIterator({ path: { message_id: messageId } }) as Promise<
          AsyncIterable<{ items?: { reaction_id?: string }[] } | undefined>
        >
      )).map((r) => r.reaction_id ?? "");
      assert.ok(
        reactions.includes(reaction.data?.reaction_id ?? "?"),
        `reactions listed: ${reactions.join(",")}`,
      );
      await c.call(
        "im.messageReaction.delete",
        () =>
          client.im.messageReaction.delete({
            path: {
              message_id: messageId,
              reaction_id: reaction.data?.reaction_id ?? "",
            },
          }),
      );

      // calendar
      await c.call(
        "calendar.calendar.primary",
        () => client.calendar.calendar.primary({}),
      );
      await c.call(
        "calendar.calendar.list",
        () => client.calendar.calendar.list({ params: { page_size: 50 } }),
      );
      await c.call(
        "calendar.calendar.get",
        () =>
          client.calendar.calendar.get({
            path: { calendar_id: CALENDARS.bot },
          }),
      );
      const event = await c.call(
        "calendar.calendarEvent.create",
        () =>
          client.calendar.calendarEvent.create({
            path: { calendar_id: CALENDARS.bot },
            data: {
              summary: "SDK sync",
              start_time: { timestamp: "1795500000" },
              end_time: { timestamp: "1795503600" },
            },
          }),
      );
      const eventId = event.data?.event?.event_id ?? "";
      await c.call(
        "calendar.calendarEvent.get",
        () =>
          client.calendar.calendarEvent.get({
            path: { calendar_id: CALENDARS.bot, event_id: eventId },
          }),
      );
      await c.call(
        "calendar.calendarEvent.patch",
        () =>
          client.calendar.calendarEvent.patch({
            path: { calendar_id: CALENDARS.bot, event_id: eventId },
            data: { summary: "SDK sync (moved)" },
          }),
      );
      await c.call(
        "calendar.calendarEvent.list",
        () =>
          client.calendar.calendarEvent.list({
            path: { calendar_id: CALENDARS.bot },
            params: { start_time: "1795400000", end_time: "1795600000" },
          }),
      );
      await c.call(
        "calendar.freebusy.list",
        () =>
          client.calendar.freebusy.list({
            params: { user_id_type: "open_id" },
            data: {
              time_min: "2026-11-23T00:00:00+08:00",
              time_max: "2026-11-24T00:00:00+08:00",
              user_id: alice,
            },
          }),
      );
      await c.call(
        "calendar.calendarEvent.delete",
        () =>
          client.calendar.calendarEvent.delete({
            path: { calendar_id: CALENDARS.bot, event_id: eventId },
          }),
      );

      // task v2, as the user
      const task = await c.call(
        "task.task.create",
        () => client.task.v2.task.create({ data: { summary: "SDK task" } }, asUser),
      );
      const taskGuid = task.data?.task?.guid ?? "";
      await c.call(
        "task.task.get",
        () => client.task.v2.task.get({ path: { task_guid: taskGuid } }, asUser),
      );
      await c.call("task.task.patch", () =>
        client.task.v2.task.patch({
          path: { task_guid: taskGuid },
          data: {
            task: { summary: "SDK task (edited)" },
            update_fields: ["summary"],
          },
        }, asUser));
      await c.call(
        "task.task.list",
        () => client.task.v2.task.list({ params: { page_size: 50 } }, asUser),
      );
      await c.call(
        "task.task.delete",
        () => client.task.v2.task.delete({ path: { task_guid: taskGuid } }, asUser),
      );

      // drive: a folder, uploads (Buffer and stream) and their downloads
      await c.call("drive.file.list", () => client.drive.file.list({}, asUser));
      const folder = await c.call(
        "drive.file.createFolder",
        () =>
          client.drive.file.createFolder({
            data: { name: "SDK folder", folder_token: "" },
          }, asUser),
      );
      const folderToken = folder.data?.token ?? "";
      const uploaded = await c.upload(
        "drive.file.uploadAll (stream)",
        () =>
          client.drive.file.uploadAll({
            data: {
              file_name: "upload.bin",
              parent_type: "explorer",
              parent_node: folderToken,
              size: BINARY.length,
              file: fs.createReadStream(binPath),
            },
          }, asUser),
      );
      const drivePath = join(tmp, "drive.bin");
      await c.reach(async () => {
        const res = await client.drive.file.download({
          path: { file_token: uploaded?.file_token ?? "" },
        }, asUser);
        await res.writeFile(drivePath);
      });
      assert.deepEqual(await Deno.readFile(drivePath), BINARY);

      // docx
      const doc = await c.call(
        "docx.document.create",
        () =>
          client.docx.document.create({
            data: { title: "SDK doc", folder_token: folderToken },
          }, asUser),
      );
      const documentId = doc.data?.document?.document_id ?? "";
      // An image for the document, uploaded as a Buffer, downloads as the bytes uploaded.
      const media = await c.upload(
        "drive.media.uploadAll (Buffer)",
        () =>
          client.drive.media.uploadAll({
            data: {
              file_name: "media.png",
              parent_type: "docx_image",
              parent_node: documentId,
              size: PNG.length,
              file: Buffer.from(PNG),
            },
          }, asUser),
      );
      const mediaBytes = await c.reach(async () =>
        await bytesOf(
          (await client.drive.media.download({
            path: { file_token: media?.file_token ?? "" },
          }, asUser))
            .getReadableStream(),
        )
      );
      assert.deepEqual(mediaBytes, PNG);
      // The seeded handbook is read through the document routes (a document created through the generic
      // create is not theirs yet).
      await c.call(
        "docx.document.get",
        () =>
          client.docx.document.get(
            { path: { document_id: DOCS.handbook } },
            asUser,
          ),
      );
      await c.call(
        "docx.document.rawContent",
        () =>
          client.docx.document.rawContent({
            path: { document_id: DOCS.handbook },
          }, asUser),
      );
      await c.call(
        "docx.documentBlock.list",
        () =>
          client.docx.documentBlock.list(
            { path: { document_id: documentId } },
            asUser,
          ),
      );

      // bitable: an app, a table, records
      const base = await c.call(
        "bitable.app.create",
        () =>
          client.bitable.app.create({
            data: { name: "SDK base", folder_token: folderToken },
          }, asUser),
      );
      const appToken = base.data?.app?.app_token ?? "";
      await c.call(
        "bitable.app.get",
        () => client.bitable.app.get({ path: { app_token: appToken } }, asUser),
      );
      const table = await c.call(
        "bitable.appTable.create",
        () =>
          client.bitable.appTable.create({
            path: { app_token: appToken },
            data: {
              table: {
                name: "Issues",
                fields: [{ field_name: "Title", type: 1 }],
              },
            },
          }, asUser),
      );
      const tableId = table.data?.table_id ?? "";
      await c.call(
        "bitable.appTable.list",
        () =>
          client.bitable.appTable.list(
            { path: { app_token: appToken } },
            asUser,
          ),
      );
      await c.call(
        "bitable.appTableField.list",
        () =>
          client.bitable.appTableField.list({
            path: { app_token: appToken, table_id: tableId },
          }, asUser),
      );
      // Records live in the seeded base's table, which the record routes hold.
      const inTable = { app_token: BASE.app, table_id: BASE.table };
      const record = await c.call(
        "bitable.appTableRecord.create",
        () =>
          client.bitable.appTableRecord.create({
            path: inTable,
            data: { fields: { Title: "first" } },
          }, asUser),
      );
      const recordId = record.data?.record?.record_id ?? "";
      await c.call(
        "bitable.appTableRecord.get",
        () =>
          client.bitable.appTableRecord.get({
            path: { ...inTable, record_id: recordId },
          }, asUser),
      );
      await c.call(
        "bitable.appTableRecord.update",
        () =>
          client.bitable.appTableRecord.update({
            path: { ...inTable, record_id: recordId },
            data: { fields: { Title: "first (edited)" } },
          }, asUser),
      );
      await c.call(
        "bitable.appTableRecord.list",
        () => client.bitable.appTableRecord.list({ path: inTable }, asUser),
      );

      // sheets
      const sheet = await c.call(
        "sheets.spreadsheet.create",
        () =>
          client.sheets.spreadsheet.create({
            data: { title: "SDK sheet", folder_token: folderToken },
          }, asUser),
      );
      const sheetToken = sheet.data?.spreadsheet?.spreadsheet_token ?? "";
      await c.call(
        "sheets.spreadsheet.get",
        () =>
          client.sheets.spreadsheet.get({
            path: { spreadsheet_token: sheetToken },
          }, asUser),
      );
      await c.call(
        "sheets.spreadsheetSheet.query",
        () =>
          client.sheets.spreadsheetSheet.query({
            path: { spreadsheet_token: SHEETS.budget },
          }, asUser),
      );

      // wiki
      const space = await c.call(
        "wiki.space.create",
        () =>
          client.wiki.space.create({
            data: { name: "SDK space", description: "made by the test" },
          }, asUser),
      );
      const spaceId = space.data?.space?.space_id ?? "";
      await c.call(
        "wiki.space.get",
        () => client.wiki.space.get({ path: { space_id: spaceId } }, asUser),
      );
      const node = await c.call(
        "wiki.spaceNode.create",
        () =>
          client.wiki.spaceNode.create({
            path: { space_id: spaceId },
            data: { obj_type: "docx", node_type: "origin", title: "SDK page" },
          }, asUser),
      );
      await c.call(
        "wiki.space.getNode",
        () =>
          client.wiki.space.getNode({
            params: { token: node.data?.node?.node_token ?? "" },
          }, asUser),
      );
      await c.call(
        "wiki.spaceNode.list",
        () => client.wiki.spaceNode.list({ path: { space_id: spaceId } }, asUser),
      );

      // mail: a mail group and its member
      const group = await c.call(
        "mail.mailgroup.create",
        () =>
          client.mail.mailgroup.create({
            data: { email: "sdk-group@sandbox.invalid", name: "SDK group" },
          }),
      );
      const groupId = group.data?.mailgroup_id ?? "";
      await c.call(
        "mail.mailgroup.get",
        () => client.mail.mailgroup.get({ path: { mailgroup_id: groupId } }),
      );
      await c.call(
        "mail.mailgroupMember.create",
        () =>
          client.mail.mailgroupMember.create({
            path: { mailgroup_id: groupId },
            params: { user_id_type: "open_id" },
            data: { user_id: bob, type: "USER" },
          }),
      );
      await c.call(
        "mail.mailgroupMember.list",
        () => client.mail.mailgroupMember.list({ path: { mailgroup_id: groupId } }),
      );

      // approval: a definition made here, read back
      const definition = await c.call("approval.approval.create", () =>
        client.approval.approval.create({
          params: { user_id_type: "open_id" },
          data: {
            approval_name: "@i18n@name",
            viewers: [{ viewer_type: "TENANT" }],
            form: { form_content: JSON.stringify([{ id: "reason", type: "input", name: "@i18n@reason" }]) },
            node_list: [{ id: "START" }, { id: "END" }],
            i18n_resources: [{
              locale: "en-US",
              is_default: true,
              texts: [{ key: "@i18n@name", value: "SDK leave" }, { key: "@i18n@reason", value: "Reason" }],
            }],
          },
        }));
      await c.call(
        "approval.approval.get",
        () => client.approval.approval.get({ path: { approval_code: definition.data?.approval_code ?? "" } }),
      );

      // okr
      await c.call(
        "okr.period.create",
        () => client.okr.period.create({ data: { period_rule_id: "sdk-rule", start_month: "2026-10" } }),
      );
      await c.call("okr.period.list", () => client.okr.period.list({}));

      // vc: a reservation made here, read back
      const reserve = await c.call(
        "vc.reserve.apply",
        () =>
          client.vc.reserve.apply({
            data: {
              end_time: "1795503600",
              meeting_settings: { topic: "SDK meeting" },
            },
          }, asUser),
      );
      const reserveId = reserve.data?.reserve?.id ?? "";
      await c.call(
        "vc.reserve.get",
        () => client.vc.reserve.get({ path: { reserve_id: reserveId } }, asUser),
      );

      // application
      await c.call("application.scope.list", () => client.application.scope.list({}));

      // Refusals the SDK surfaces with the suite's code.
      await c.refused(
        "im.message.get of a message that does not exist",
        230011,
        () =>
          client.im.message.get({
            path: { message_id: "om_doesnotexist0000000000000000" },
          }),
      );
      await c.refused(
        "task.task.create without the task scope",
        99991679,
        () =>
          client.task.v2.task.create(
            { data: { summary: "no scope" } },
            lark.withUserAccessToken(narrow.access_token),
          ),
      );
      await c.refused(
        "im.message.create with a bad receive_id_type",
        99992402,
        () =>
          client.im.message.create({
            params: { receive_id_type: "nonsense" as "chat_id" },
            data: {
              receive_id: chatId,
              msg_type: "text",
              content: JSON.stringify({ text: "x" }),
            },
          }),
      );
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
    c.report({ methods: 60, services: 12 });
  });
});
