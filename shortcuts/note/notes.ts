/**
 * `note +detail` / `note +transcript`: a meeting note (how it is shown, the documents holding it) and its
 * unified transcript. The transcript is the result's `content`; `--format pretty` prints the text alone, ready
 * to redirect into a file.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";

const notePath = (id: string) => {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw errors.validation(`--note-id is not a note ID: "${id}"`);
  return `/open-apis/vc/v1/notes/${encodeURIComponent(id)}`;
};

const Note = z.object({ note: z.looseObject({ note_id: z.optional(z.string()) }) });

export const noteDetail = defineShortcut({
  service: "note",
  command: "+detail",
  description: "Get a meeting note: display type and the tokens of its documents",
  examples: [
    "larkit note +detail --note-id 7301",
    "larkit note +detail --note-id 7301 --jq '.data.doc_token'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["vc:note:read"], bot: ["vc:note:read"] },
  hasFormat: true,
  flags: { "note-id": flag.requiredString("note ID") },
  async run(ctx) {
    const { note } = await ctx.api({
      method: "GET",
      path: notePath(ctx.flags["note-id"]),
      response: Note,
      planned: { note: { note_id: ctx.flags["note-id"] } },
    });
    await ctx.outFormat(note);
  },
});

const Transcript = z.object({ content: z._default(z.string(), ""), format: z.optional(z.string()) });

export const noteTranscript = defineShortcut({
  service: "note",
  command: "+transcript",
  description: "Get a meeting note's transcript as markdown or plain text (user identity only)",
  examples: [
    "larkit note +transcript --note-id 7301 --format pretty > transcript.md",
    "larkit note +transcript --note-id 7301 --transcript-format plain_text --locale en_us",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["vc:note:read"] },
  hasFormat: true,
  flags: {
    "note-id": flag.requiredString("note ID"),
    "transcript-format": flag.choice(["markdown", "plain_text"] as const, "transcript text format", {
      default: "markdown",
    }),
    locale: flag.string("language of the transcript, e.g. en_us, zh_cn"),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (f.locale !== undefined && !/^[a-z]{2}_[a-z]{2}$/.test(f.locale)) {
      throw errors.validation(`--locale must look like en_us, got "${f.locale}"`);
    }
    const path = notePath(f["note-id"]);
    // The note is read first: an unknown or inaccessible note fails here with the suite's own error.
    await ctx.api({
      method: "GET",
      path,
      description: "check the note exists",
      response: Note,
      planned: { note: { note_id: f["note-id"] } },
    });
    const t = await ctx.api({
      method: "GET",
      path: `${path}/unified_note_transcript`,
      params: { format: f["transcript-format"], locale: f.locale },
      response: Transcript,
      planned: { content: "" },
    });
    const result = { note_id: f["note-id"], format: f["transcript-format"], content: t.content };
    await ctx.outFormat(result, undefined, (data) => {
      const text = (data as typeof result).content;
      return text.endsWith("\n") ? text : `${text}\n`;
    });
  },
});
