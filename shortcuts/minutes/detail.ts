/**
 * `minutes +detail`: minutes by token -- title, owner, duration -- and, on request, the AI artifacts (summary,
 * todos, chapters, transcript, keywords), fetched once per minute only when one of those flags is given.
 */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { tokenList } from "../vc/common.ts";
import { minutePath } from "./common.ts";

const ARTIFACTS = {
  summary: "summary",
  todo: "todos",
  chapter: "chapters",
  transcript: "transcript",
  keyword: "keywords",
} as const;
type Artifact = keyof typeof ARTIFACTS;

const Minute = z.object({ minute: z.looseObject({}) });
const Artifacts = z.looseObject({});

export const detail = defineShortcut({
  service: "minutes",
  command: "+detail",
  description: "Get minutes by token, optionally with their summary, todos, chapters, transcript or keywords",
  examples: [
    "larkit minutes +detail --minute-tokens obcnq3b9jl72l83w4f149w9c",
    "larkit minutes +detail --minute-tokens obcn1,obcn2 --summary --todo",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["minutes:minutes.basic:read", "minutes:minutes.artifacts:read"],
    bot: ["minutes:minutes.basic:read", "minutes:minutes.artifacts:read"],
  },
  hasFormat: true,
  columns: ["title", "create_time", "duration", "url", "minute_token"],
  flags: {
    "minute-tokens": flag.requiredString("minute tokens, comma-separated (at most 20)"),
    summary: flag.boolean("include the AI summary"),
    todo: flag.boolean("include the todo items"),
    chapter: flag.boolean("include the chapters"),
    transcript: flag.boolean("include the transcript text"),
    keyword: flag.boolean("include the keywords"),
  },
  async run(ctx) {
    const wanted = (Object.keys(ARTIFACTS) as Artifact[]).filter((k) => ctx.flags[k]);
    const out = [];
    for (const t of tokenList("minute-tokens", ctx.flags["minute-tokens"], 20)) {
      const { minute } = await ctx.api({
        method: "GET",
        path: minutePath(t),
        description: "once per minute",
        response: Minute,
        planned: { minute: { token: t } },
      });
      const entry: Record<string, unknown> = { minute_token: t, ...minute };
      if (wanted.length) {
        const a = await ctx.api({
          method: "GET",
          path: minutePath(t, "/artifacts"),
          description: "the artifacts asked for",
          response: Artifacts,
          planned: {},
        });
        for (const k of wanted) entry[ARTIFACTS[k]] = a[ARTIFACTS[k]] ?? null;
      }
      out.push(entry);
    }
    await ctx.outFormat(out, { count: out.length });
  },
});
