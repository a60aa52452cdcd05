/**
 * The request-contract sweep (issue #32 item 4): every example of every shortcut (`examples`, what `--help`
 * shows) and every complete `larkit ... +shortcut ...` command a skill names, run with `--dry-run`, and every
 * call it plans checked against its method's request schema the way the emulator checks a real request
 * (`sandbox/request_check.ts`, unknown fields refused): a call no registry method serves, an unknown field, a
 * missing required one and a mistyped one fail the test, naming the shortcut, the call and the field. A new
 * shortcut is swept the day it is added; the count of checked calls may not drop below a floor.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadAllShortcuts } from "../shortcuts/index.ts";
import { allSkills } from "../skills/catalog.ts";
import { type Planned, planProblems } from "./helpers/plan_fit.ts";
import { withSuite } from "./helpers/suite_session.ts";

/** The sweep checked 750 calls when this was set; fewer means examples stopped planning (or running) calls. */
const CALLS_FLOOR = 740;

/**
 * Skill mentions that are no example: they name a shortcut in running text and leave the flags the text
 * around them gives (the base or spreadsheet being talked about) to the reader.
 */
const SKIPPED: Record<string, string> = {
  "larkit base +record-get --record-id recA,recB": "base skill: the base and table are the ones named above",
  'larkit base +record-upsert --json {"Title":"Fix login"}': "base skill: the base and table named above",
  "larkit base +record-batch-create --json @rows.json": "base skill: the base and table named above",
  "larkit docs +update --mode append": "docs skill: the mode is the point; the document is the reader's",
  "larkit docs +update --mode replace_range --selection-by-title ## Section": "docs skill: as above",
  "larkit mail +send --confirm-send": "mail skill: the flag is the point; the message is the reader's",
  "larkit drive +import --type docx": "markdown skill: the file is the one the text talks about",
  'larkit sheets +cells-set --range A1 --values [["Item","Qty"],["Pens",3]]':
    "sheets skill: the spreadsheet named above",
  "larkit sheets +csv-put --range A1 --csv @data.csv": "sheets skill: the spreadsheet named above",
  "larkit sheets +cells-replace --find 2025 --replacement 2026": "sheets skill: the spreadsheet named above",
};

/** A 1x1 PNG, for examples that upload an image. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const SLIDE = "<slide><shape>Q3 review</shape></slide>";
const HTML = "<p>Hello from the sweep</p>";
const MARKDOWN = "# Plan\n\n## Status\n\nOn track.\n";

/** The files examples read, by name (`./x`, `@x` and `x` all name `x`). */
const FILES: Record<string, string | Uint8Array> = {
  "notes.md": MARKDOWN,
  "summary.md": MARKDOWN,
  "status.md": MARKDOWN,
  "plan.md": MARKDOWN,
  "more.md": MARKDOWN,
  "file.md": MARKDOWN,
  "chart.png": PNG,
  "cover.png": PNG,
  "logo.png": PNG,
  "flow.mmd": "graph TD\n  A-->B\n",
  "report.pdf": "%PDF-1.4\n%sweep\n",
  "spec.pdf": "%PDF-1.4\n%sweep\n",
  "plan.pdf": "%PDF-1.4\n%sweep\n",
  "video.mp4": new Uint8Array(64),
  "talk.mp4": new Uint8Array(64),
  "budget.xlsx": new Uint8Array(64),
  "data.csv": "Item,Qty\nPens,3\n",
  "fields.json": '{"Title":"Fix login"}',
  "role.json": '{"role_name":"Readers","table_roles":[{"table_name":"Tasks","table_perm":1}]}',
  "update.html": HTML,
  "notes.html": HTML,
  "answer.html": HTML,
  "intro.html": HTML,
  "newsletter.html": HTML,
  "mail.html": HTML,
  "todos.json": '[{"content":"Send the deck","is_done":false}]',
  "words.json": '{"Lark kit":"larkit"}',
  "okrs.json": '[{"content":"Grow users","key_results":[{"content":"Ship onboarding v2"}]}]',
  "update.txt": "Halfway there",
  "nodes.json": '[{"type":"composite_shape","x":0,"y":0,"width":120,"height":60}]',
  "cover.xml": SLIDE,
  "page.xml": SLIDE,
};

/** Files whose content depends on the shortcut reading them. */
const FILES_OF: Record<string, Record<string, string>> = {
  "sheets +cells-set": { "rows.json": '[["Item","Qty"],["Pens",3]]' },
  "base +record-batch-create": { "rows.json": '[{"fields":{"Title":"A"}},{"fields":{"Title":"B"}}]' },
};

/** What a placeholder (`<event_id>`) of a skill's example stands for: `flag placeholder` -> a value. */
const VALUES: Record<string, string> = {
  "--calendar-id <calendar_id>": "feishu.cn_team@group.calendar.feishu.cn",
  "--content <text>": "v2",
  "--cycle-id <id>": "7012345678901234567",
  "--doc <t>": "doxcnAbc123",
  "--doc <token>": "doxcnAbc123",
  "--doc <url or token>": "https://example.feishu.cn/docx/doxcnAbc123",
  "--draft-id <id>": "draft_0001",
  "--event-id <event_id>": "e_1",
  "--event-ids <event_id>": "e_1",
  "--file <image>": "cover.png",
  "--file <path>": "notes.md",
  "--file-token <file_token>": "boxcnAbc123",
  "--file-token <t>": "boxcnAbc123",
  "--file-token <token>": "boxcnAbc123",
  "--history-version-id <v>": "7312345678901234567",
  "--id <id>": "7012345678901234568",
  "--meeting-id <id>": "6911188411934433028",
  "--meeting-ids <id>": "6911188411934433028",
  "--message-id <id>": "mail_123",
  "--minute-token <token>": "obcnq3b9jl72l83w4f149w9c",
  "--minute-tokens <token>": "obcnq3b9jl72l83w4f149w9c",
  "--name <name>": "Reports",
  "--node-token <node or wiki URL>": "wikcnKQ1k3p",
  "--node-token <node>": "wikcnKQ1k3p",
  "--note-id <note_id>": "7301",
  "--obj-token <doc>": "doxcnAbc123",
  "--objective-id <id>": "7012345678901234568",
  "--parent-node <block>": "doxcnAbc123",
  "--pattern <text>": "draft",
  "--presentation <t>": "sldcnAbc",
  "--progress-id <id>": "7012345678901234569",
  "--query <words>": "roadmap",
  "--slide-id <id>": "s2",
  "--slot <start>/<end>": "2026-03-02T14:00/2026-03-02T15:00",
  "--space-id <id>": "7012345678901234570",
  "--target-parent-token <node>": "wikcnKQ1k3q",
  "--target-space-id <id>": "7012345678901234570",
  "--task-id <guid>": "7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f",
  "--task-id <guid>,<guid>": "7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f,7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e20",
  "--task-id <id>": "7312345678901234568",
  "--tasklist-id <guid>": "5f1a2b3c-0001-4e5f-8a9b-0c1d2e3f4a5b",
  "--thread-id <id>": "thr_123",
  "--ticket <ticket>": "7369583175086912356",
  "--token <media token>": "boxcnMedia1",
  "--token <t>": "doxcnAbc123",
  "--type <type>": "docx",
  "--url <url>": "https://example.feishu.cn/docx/doxcnAbc123",
  "--whiteboard-token <t>": "wbcnAbc123",
  // Shortcut examples: the hash +diff printed (any 64 hex digits in a dry run).
  "--base-sha256 <hex>": "0".repeat(64),
  "--base-sha256 <remote_sha256>": "0".repeat(64),
  "--page-token <meta.page_token>": "pt_0001",
  // The event skill's script: shell variables it sets from each event.
  "--message-id $message_id": "om_0123456789abcdef",
  "--text $answer": "Got it",
};

/**
 * A command line split the way a POSIX shell splits it (quotes, backslash escapes, a backslash-newline joins
 * lines), up to the first operator (`|`, `>`, `;`, `&` starting a word): the larkit command, not what follows
 * it. `<event_id>` is a word (a skill's placeholder), not a redirection.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && line[i + 1] === "\n") {
      i++;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (word === undefined && /[|>;&]/.test(c)) {
      break;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `argv` without these options and their values (`--format table`, `--format=table`). */
function dropOptions(argv: string[], names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (names.includes(argv[i])) i++;
    else if (!names.some((n) => argv[i].startsWith(`${n}=`))) out.push(argv[i]);
  }
  return out;
}

interface Example {
  /** `im +messages-send`. */
  shortcut: string;
  /** Where it is written: `examples` of the shortcut, or a skill. */
  source: string;
  argv: string[];
}

function exampleOf(line: string, source: string): Example | undefined {
  const words = shellWords(line.trim().replace(/^\$\s*/, ""));
  if (words[0] !== "larkit" || !words[2]?.startsWith("+")) return undefined;
  // The plan is a JSON document whatever the example asks to print.
  const argv = dropOptions(words.slice(1), ["--format", "--jq", "-q", "--columns"]);
  return { shortcut: `${argv[0]} ${argv[1]}`, source, argv };
}

/** Every shortcut's `examples`, and every skill span that runs a shortcut with flags (not `…` elided ones). */
async function examples(): Promise<Example[]> {
  const out: Example[] = [];
  for (const s of await loadAllShortcuts()) {
    for (const line of s.examples) {
      const filled = line.replace(
        /(--[\w-]+) (<[^>]*>)/g,
        (_, flag: string, ph: string) => `${flag} '${placeholder(flag, ph)}'`,
      );
      const ex = exampleOf(filled, `${s.service} ${s.command} example`);
      if (ex) out.push(ex);
    }
  }
  for (const skill of allSkills()) {
    // Code spans, and the lines of fenced code blocks (a script's `larkit ...` line).
    const fenced = [...skill.text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((b) => b[1].split("\n"));
    const spans = [...skill.text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`([^`]*)`/g)].map((m) => m[1]);
    for (const text of [...spans, ...fenced]) {
      // One line; optional parts (`[--slide @cover.xml]`) left out; placeholders (`<event_id>`, a script's
      // `"$message_id"`) filled in.
      const line = text.trim().replace(/\s*\n\s*/g, " ").replace(/\s*\[--[^\]]*\]/g, "");
      if (!/^larkit \S+ \+\S+ .*--/.test(line) || /\u2026|\.\.\./.test(line)) continue;
      const span = line.replace(
        /(--[\w-]+) (<[^>]*>(?:[,/]<[^>]*>)*|"\$\w+")/g,
        (_, flag: string, ph: string) => `${flag} '${placeholder(flag, ph.replaceAll('"', ""))}'`,
      );
      const ex = exampleOf(span, `skill ${skill.domain}`);
      if (ex) out.push(ex);
    }
  }
  return out;
}

/** A placeholder (`<event_id>`) as the value its flag takes. */
function placeholder(flag: string, word: string): string {
  const value = VALUES[`${flag} ${word}`];
  if (value === undefined) throw new Error(`no value for ${flag} ${word}: add it to VALUES`);
  return value;
}

/** Flags naming a file the run writes: no fixture for them. */
const OUTPUTS = ["--output", "-o", "--file-name"];

/** A fresh directory with the files the example reads. */
async function filesFor(ex: Example): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "larkit-sweep-" });
  const files = { ...FILES, ...FILES_OF[ex.shortcut] };
  // A file is named by a word of its own (`./plan.pdf`, `@rows.json`) or inside a JSON value
  // (`--inline '[{"file_path":"./logo.png"}]'`).
  const named = ex.argv.flatMap((w, i) =>
    OUTPUTS.includes(ex.argv[i - 1]) ? [] : [
      w.replace(/^@/, "").replace(/^\.\//, ""),
      ...[...w.matchAll(/"(?:\.\/)?([^"/]+\.\w+)"/g)].map((m) => m[1]),
    ]
  );
  for (const name of new Set(named)) {
    if (!Object.hasOwn(files, name)) continue;
    const content = files[name];
    if (typeof content === "string") await Deno.writeTextFile(join(dir, name), content);
    else await Deno.writeFile(join(dir, name), content);
  }
  return dir;
}

Deno.test("the request-contract sweep: every shortcut example's planned calls fit their methods' request schemas", async () => {
  const all = await examples();
  const problems: string[] = [];
  let calls = 0;
  await withSuite(async (_emu, larkit) => {
    for (const ex of all) {
      const line = `larkit ${ex.argv.join(" ")}`;
      if (SKIPPED[line]) continue;
      const cwd = await filesFor(ex);
      // As the user unless the example says bot: the shortcut picks the identity it prefers among those.
      const asUser = ex.argv[ex.argv.indexOf("--as") + 1] !== "bot";
      const r = await larkit([...ex.argv, "--dry-run"], { asUser, cwd });
      await Deno.remove(cwd, { recursive: true });
      const doc = r.code === 0 ? r.json<{ data?: { api?: Planned[] } } | null>() : null;
      if (!doc?.data) {
        problems.push(
          `${ex.source}: ${line} --dry-run exits ${r.code}: ${(r.stderr || r.stdout).slice(0, 300)}`,
        );
        continue;
      }
      for (const call of doc.data.api ?? []) {
        calls++;
        const p = await planProblems(call);
        if (p) problems.push(`${ex.source}: ${line}: ${p}`);
      }
    }
  });
  console.log(`request-contract sweep: ${all.length} examples, ${calls} planned calls checked`);
  assert.deepEqual(problems, []);
  assert.ok(calls >= CALLS_FLOOR, `only ${calls} calls checked (floor ${CALLS_FLOOR})`);
});
