import assert from "node:assert/strict";
import { LarkitError } from "../../cli/output/errors.ts";
import type { FlagValues } from "../declare.ts";
import { type contentFlags, fileTypeOf, markdownPost, messageSourceOf } from "./content.ts";
import { resourcesOf } from "./messages.ts";

type ContentFlags = FlagValues<typeof contentFlags>;
const flags = (over: Partial<ContentFlags>): ContentFlags => ({
  text: undefined,
  markdown: undefined,
  content: undefined,
  image: undefined,
  file: undefined,
  audio: undefined,
  video: undefined,
  "video-cover": undefined,
  "msg-type": "text",
  ...over,
});

function validationMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LarkitError && e.type === "validation");
    return e.message;
  }
  throw new Error("expected a validation error");
}

Deno.test("content: text, markdown as a post of paragraphs, raw content, keys and paths", () => {
  assert.deepEqual(messageSourceOf(flags({ text: "hi" })), {
    kind: "inline",
    msgType: "text",
    content: '{"text":"hi"}',
  });
  assert.equal(
    markdownPost("# T\n\nline **b**\n  \n\nend"),
    JSON.stringify({
      zh_cn: {
        content: [[{ tag: "md", text: "# T" }], [{ tag: "md", text: "line **b**" }], [{
          tag: "md",
          text: "end",
        }]],
      },
    }),
  );
  assert.equal(messageSourceOf(flags({ markdown: "x" })).kind, "inline");
  assert.deepEqual(
    messageSourceOf(flags({ content: '{"x":1}', "msg-type": "interactive" })),
    { kind: "inline", msgType: "interactive", content: '{"x":1}' },
  );
  assert.deepEqual(messageSourceOf(flags({ image: "img_v3_1" })), {
    kind: "media",
    msgType: "image",
    image: { key: "img_v3_1" },
  });
  assert.deepEqual(messageSourceOf(flags({ file: "./r.pdf" })), {
    kind: "media",
    msgType: "file",
    file: { path: "./r.pdf" },
  });
  assert.deepEqual(messageSourceOf(flags({ audio: "v.opus" })), {
    kind: "media",
    msgType: "audio",
    file: { path: "v.opus" },
  });
  assert.deepEqual(messageSourceOf(flags({ video: "file_1", "video-cover": "cover.png" })), {
    kind: "media",
    msgType: "media",
    file: { key: "file_1" },
    image: { path: "cover.png" },
  });
});

Deno.test("content: exactly one source, valid JSON, no conflicting --msg-type", () => {
  assert.match(validationMessage(() => messageSourceOf(flags({}))), /specify the message/);
  assert.match(
    validationMessage(() => messageSourceOf(flags({ text: "a", image: "b" }))),
    /--text, --image cannot be combined/,
  );
  assert.match(
    validationMessage(() => messageSourceOf(flags({ content: "{" }))),
    /--content is not valid JSON/,
  );
  assert.match(
    validationMessage(() => messageSourceOf(flags({ markdown: "x", "msg-type": "image" }))),
    /conflicts with the message type "post"/,
  );
  assert.match(
    validationMessage(() => messageSourceOf(flags({ video: "v.mp4" }))),
    /--video needs --video-cover/,
  );
  assert.match(
    validationMessage(() => messageSourceOf(flags({ text: "x", "video-cover": "c.png" }))),
    /only goes with --video/,
  );
  assert.match(validationMessage(() => messageSourceOf(flags({ audio: "v.mp3" }))), /must be a \.opus file/);
});

Deno.test("fileTypeOf maps known extensions and falls back to stream", () => {
  assert.equal(fileTypeOf("a/Report.PDF"), "pdf");
  assert.equal(fileTypeOf("sheet.xlsx"), "xls");
  assert.equal(fileTypeOf("archive.tar.gz"), "stream");
});

Deno.test("resourcesOf finds media keys and a post's images", () => {
  assert.deepEqual(resourcesOf({ msg_type: "media", content: { file_key: "file_1", image_key: "img_1" } }), [
    { key: "file_1", type: "file" },
    { key: "img_1", type: "image" },
  ]);
  const post = { zh_cn: { content: [[{ tag: "text", text: "x" }, { tag: "img", image_key: "img_2" }]] } };
  assert.deepEqual(resourcesOf({ msg_type: "post", content: post }), [{ key: "img_2", type: "image" }]);
  assert.deepEqual(resourcesOf({ msg_type: "text", content: { text: "img_3" } }), []);
});
