/**
 * The minutes write shortcuts (user identity only, except asking for access): make a minute from uploaded
 * media, rename it, replace its summary, change its todos, rebind a transcript speaker, replace words.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { minutePath, minuteTokenFlag } from "./common.ts";

const UPDATE = ["minutes:minutes:update"];

export const upload = defineShortcut({
  service: "minutes",
  command: "+upload",
  description: "Make a minute from an audio or video file already uploaded to Drive (user identity only)",
  examples: ["larkit minutes +upload --file-token boxcnrHpsg1QDqXAAAyachabcef"],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["minutes:minutes.upload:write"] },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("Drive file token of the media (larkit drive +upload gives it)"),
  },
  async run(ctx) {
    const fileToken = token("file-token", ctx.flags["file-token"]);
    const made = await ctx.api({
      method: "POST",
      path: "/open-apis/minutes/v1/minutes/upload",
      body: { file_token: fileToken },
      response: z.looseObject({ minute_token: z.optional(z.string()) }),
      planned: { minute_token: "<minute_token>" },
    });
    await ctx.out({ file_token: fileToken, minute_token: made.minute_token ?? null });
  },
});

export const update = defineShortcut({
  service: "minutes",
  command: "+update",
  description: "Rename a minute (user identity only)",
  examples: ['larkit minutes +update --minute-token obcnq3b9jl72l83w4f149w9c --topic "Q4 planning"'],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: UPDATE },
  hasFormat: false,
  flags: { "minute-token": minuteTokenFlag, topic: flag.requiredString("new title") },
  async run(ctx) {
    const { minute } = await ctx.api({
      method: "PATCH",
      path: minutePath(ctx.flags["minute-token"]),
      body: { topic: ctx.flags.topic },
      response: z.object({ minute: z.optional(z.looseObject({})) }),
      planned: { minute: {} },
    });
    await ctx.out({
      minute_token: ctx.flags["minute-token"],
      topic: ctx.flags.topic,
      minute: minute ?? null,
    });
  },
});

export const applyPermission = defineShortcut({
  service: "minutes",
  command: "+apply-permission",
  description: "Ask a minute's owner for view or edit access",
  examples: ["larkit minutes +apply-permission --minute-token obcnq3b9jl72l83w4f149w9c --perm view"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["minutes:permission:apply"], bot: ["minutes:permission:apply"] },
  hasFormat: false,
  flags: {
    "minute-token": minuteTokenFlag,
    perm: flag.requiredChoice(["view", "edit"] as const, "access asked for"),
  },
  async run(ctx) {
    await ctx.api({
      method: "POST",
      path: minutePath(ctx.flags["minute-token"], "/permissions/apply"),
      body: { perm: ctx.flags.perm },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ minute_token: ctx.flags["minute-token"], perm: ctx.flags.perm, applied: true });
  },
});

export const summary = defineShortcut({
  service: "minutes",
  command: "+summary",
  description: "Replace the AI summary of a minute with your own text (user identity only)",
  examples: [
    'larkit minutes +summary --minute-token obcnq3b9jl72l83w4f149w9c --summary "## Decisions\n- ship on Friday"',
    "larkit minutes +summary --minute-token obcnq3b9jl72l83w4f149w9c --summary @summary.md",
    "cat summary.md | larkit minutes +summary --minute-token obcnq3b9jl72l83w4f149w9c --summary -",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: UPDATE },
  hasFormat: false,
  flags: {
    "minute-token": minuteTokenFlag,
    summary: flag.requiredString("the new summary (markdown)", { input: ["file", "stdin"] }),
  },
  async run(ctx) {
    await ctx.api({
      method: "PUT",
      path: minutePath(ctx.flags["minute-token"], "/summary"),
      body: { summary: ctx.flags.summary },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ minute_token: ctx.flags["minute-token"], summary_chars: [...ctx.flags.summary].length });
  },
});

const Todo = z.strictObject({
  todo_id: z.optional(z.string()),
  content: z.optional(z.string()),
  is_done: z.optional(z.boolean()),
});
const Todos = z.array(Todo).check(
  z.minLength(1, "needs at least one todo"),
  z.maxLength(50, "takes at most 50 todos"),
);

/** The todo items of one `+todo` run: `--todos` (a JSON array), else one item from the single flags. */
export function todosOf(
  op: "add" | "update" | "delete",
  f: { todo?: string; "todo-id"?: string; "is-done": boolean; todos?: unknown },
): z.infer<typeof Todos> {
  let todos: z.infer<typeof Todos>;
  if (f.todos !== undefined) {
    if (f.todo || f["todo-id"]) {
      throw errors.validation("--todos replaces --todo and --todo-id; give one form");
    }
    const parsed = Todos.safeParse(f.todos);
    if (!parsed.success) {
      throw errors.validation(`--todos: ${parsed.error.issues[0]?.message}`, {
        hint: 'e.g. --todos \'[{"content":"Send notes","is_done":false}]\'',
      });
    }
    todos = parsed.data;
  } else {
    todos = [{
      ...(f["todo-id"] ? { todo_id: f["todo-id"] } : {}),
      ...(f.todo ? { content: f.todo } : {}),
      ...(op !== "delete" ? { is_done: f["is-done"] } : {}),
    }];
  }
  for (const t of todos) {
    if (op === "add" && !t.content) throw errors.validation("adding a todo needs its text (--todo)");
    if (op !== "add" && !t.todo_id) {
      throw errors.validation(`--operation ${op} needs the todo's ID (--todo-id)`);
    }
  }
  return todos;
}

export const todo = defineShortcut({
  service: "minutes",
  command: "+todo",
  description: "Add, update or delete todo items of a minute (user identity only)",
  examples: [
    'larkit minutes +todo --minute-token obcnq3b9jl72l83w4f149w9c --todo "Send the deck"',
    "larkit minutes +todo --minute-token obcnq3b9jl72l83w4f149w9c --operation update --todo-id t1 --is-done",
    "larkit minutes +todo --minute-token obcnq3b9jl72l83w4f149w9c --todos @todos.json",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: UPDATE },
  hasFormat: false,
  flags: {
    "minute-token": minuteTokenFlag,
    operation: flag.choice(["add", "update", "delete"] as const, "what to do", { default: "add" }),
    todo: flag.string("the todo's text", { input: ["file", "stdin"] }),
    "todo-id": flag.string("the todo to update or delete"),
    "is-done": flag.boolean("mark the todo done"),
    todos: flag.json("several todos: a JSON array of {todo_id?, content?, is_done?}", {
      input: ["file", "stdin"],
    }),
  },
  async run(ctx) {
    const op = ctx.flags.operation;
    const todos = todosOf(op, ctx.flags);
    const done = await ctx.api({
      method: "POST",
      path: minutePath(ctx.flags["minute-token"], "/todo"),
      body: { operation: op, todos },
      response: z.looseObject({ todos: z.nullish(z.array(z.unknown())) }),
      planned: { todos },
    });
    await ctx.out({ minute_token: ctx.flags["minute-token"], operation: op, todos: done.todos ?? todos });
  },
});

export const speakerReplace = defineShortcut({
  service: "minutes",
  command: "+speaker-replace",
  description: "Attribute a transcript speaker's lines to a user (user identity only)",
  examples: [
    "larkit minutes +speaker-replace --minute-token obcnq3b9jl72l83w4f149w9c --from-speaker-id spk_2 --to-user-id ou_123",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["minutes:minutes:readonly", ...UPDATE] },
  hasFormat: false,
  flags: {
    "minute-token": minuteTokenFlag,
    "from-speaker-id": flag.requiredString("the speaker as the transcript names them"),
    "to-user-id": flag.requiredString("the user (open_id ou_\u2026) who spoke"),
  },
  async run(ctx) {
    const to = ctx.flags["to-user-id"];
    if (!to.startsWith("ou_")) {
      throw errors.validation(`--to-user-id must be an open_id (ou_\u2026), got "${to}"`);
    }
    const body = { from_speaker_id: ctx.flags["from-speaker-id"], to_user_id: to };
    await ctx.api({
      method: "PUT",
      path: minutePath(ctx.flags["minute-token"], "/transcript/speaker"),
      body,
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ minute_token: ctx.flags["minute-token"], ...body });
  },
});

const Words = z.pipe(
  z.union([
    z.array(z.strictObject({ from: z.string().check(z.minLength(1)), to: z.string() })),
    z.pipe(
      z.record(z.string().check(z.minLength(1)), z.string()),
      z.transform((m) => Object.entries(m).map(([from, to]) => ({ from, to }))),
    ),
  ]),
  z.array(z.object({ from: z.string(), to: z.string() })).check(
    z.minLength(1, "needs at least one word"),
    z.maxLength(100),
  ),
);

export const wordReplace = defineShortcut({
  service: "minutes",
  command: "+word-replace",
  description: "Replace words throughout a minute's transcript (user identity only)",
  examples: [
    'larkit minutes +word-replace --minute-token obcnq3b9jl72l83w4f149w9c --replace-words \'{"Lark kit":"larkit"}\'',
    "larkit minutes +word-replace --minute-token obcnq3b9jl72l83w4f149w9c --replace-words @words.json",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: UPDATE },
  hasFormat: false,
  flags: {
    "minute-token": minuteTokenFlag,
    "replace-words": flag.json('words: {"from":"to",\u2026} or [{"from":\u2026,"to":\u2026}]', {
      input: ["file", "stdin"],
    }),
  },
  async run(ctx) {
    const parsed = Words.safeParse(ctx.flags["replace-words"]);
    if (!parsed.success) {
      throw errors.validation(`--replace-words: ${parsed.error.issues[0]?.message}`, {
        hint: 'e.g. --replace-words \'{"Lark kit":"larkit"}\'',
      });
    }
    const res = await ctx.api({
      method: "PUT",
      path: minutePath(ctx.flags["minute-token"], "/transcript/word"),
      body: { replace_words: parsed.data },
      response: z.looseObject({ replaced: z.optional(z.number()) }),
      planned: { replaced: 0 },
    });
    await ctx.out({
      minute_token: ctx.flags["minute-token"],
      words: parsed.data.length,
      replaced: res.replaced ?? null,
    });
  },
});
