/**
 * Adding a shortcut is what `shortcuts/README.md` says, and nothing else: in a temporary copy of the tree, one
 * new file and its line in the service's list, then `deno task gen`. After that help, completion, `commands`,
 * the dry run and an agent-server turn's gate all see it (run in-process against the copy's own modules).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import type { CommandGate, ResolvedCommand } from "../cli/command_meta.ts";
import type * as Run from "../cli/run.ts";
import type * as TestProvider from "../cli/test_provider.ts";
import { repoFiles } from "./helpers/repo_files.ts";
import { REPO } from "./helpers/run_main.ts";

const SHORTCUT = `import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";

export const calendarPeek = defineShortcut({
  service: "calendar",
  command: "+peek",
  description: "Show one calendar by its ID",
  examples: ["larkit calendar +peek --calendar-id cal_1"],
  risk: "read",
  authTypes: ["bot"],
  scopes: { bot: ["calendar:calendar:readonly"] },
  hasFormat: false,
  flags: { "calendar-id": flag.requiredString("the calendar's ID") },
  async run(ctx) {
    const data = await ctx.api({
      method: "GET",
      path: \`/open-apis/calendar/v4/calendars/\${encodeURIComponent(ctx.flags["calendar-id"])}\`,
      response: z.looseObject({}),
      planned: {},
    });
    await ctx.out(data);
  },
});
`;

/** The tree as it is on disk, without git's store or build output. */
async function copyTree(to: string): Promise<void> {
  for await (const path of repoFiles(".", [".git", "dist", "node_modules"])) {
    await Deno.mkdir(join(to, dirname(path)), { recursive: true });
    await Deno.copyFile(join(REPO, path), join(to, path));
  }
}

/** Step 2 of the README: the import and one line in the service's `SHORTCUTS`. */
function addToList(index: string): string {
  const withImport = index.replace(
    /^(import type [^\n]+\n)/m,
    `$1import { calendarPeek } from "./peek.ts";\n`,
  );
  const listed = withImport.replace(/(export const SHORTCUTS[^\n]*\n)/, "$1  calendarPeek,\n");
  assert.notEqual(listed, withImport, "the list's shape changed: update this test and the README");
  return listed;
}

Deno.test("a shortcut added as one file, one list line and `deno task gen` is seen by help, completion, commands, the dry run and the turn gate", async () => {
  const copy = await Deno.makeTempDir({ prefix: "larkit-add-shortcut-" });
  try {
    await copyTree(copy);
    await Deno.writeTextFile(join(copy, "shortcuts/calendar/peek.ts"), SHORTCUT);
    const index = join(copy, "shortcuts/calendar/index.ts");
    await Deno.writeTextFile(index, addToList(await Deno.readTextFile(index)));

    const gen = await new Deno.Command(Deno.execPath(), { args: ["task", "gen"], cwd: copy, stdout: "null" })
      .output();
    assert.equal(gen.code, 0, new TextDecoder().decode(gen.stderr));

    const { runCli }: typeof Run = await import(join(copy, "cli/run.ts"));
    const { testProvider }: typeof TestProvider = await import(join(copy, "cli/test_provider.ts"));
    const larkit = async (argv: string[], gate?: CommandGate) => {
      const p = testProvider({
        env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_APP_ID: "cli_a1", LARKIT_APP_SECRET: "s" },
      });
      const code = await runCli(argv, p, gate ? { gate } : {});
      return { code, stdout: p.out.text(), stderr: p.err.text() };
    };

    const help = await larkit(["calendar", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /\+peek\b.*Show one calendar by its ID/);
    const own = await larkit(["calendar", "+peek", "--help"]);
    assert.match(own.stdout, /--calendar-id <value>/);
    assert.match(own.stdout, /larkit calendar \+peek --calendar-id cal_1/);

    const tab = await larkit(["__complete", "calendar", "+pe"]);
    assert.equal(tab.code, 0, tab.stderr);
    assert.match(tab.stdout, /^\+peek\b/m);

    const commands = await larkit(["commands", "--format", "ndjson"]);
    const entry = commands.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .find((e) => e.path === "calendar +peek");
    assert.ok(entry, "commands does not list calendar +peek");
    assert.deepEqual([entry.layer, entry.identities], ["shortcut", ["bot"]]);

    const dry = await larkit(["calendar", "+peek", "--calendar-id", "cal_1", "--as", "bot", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\/open-apis\/calendar\/v4\/calendars\/cal_1/);

    const seen: ResolvedCommand[] = [];
    const argv = ["calendar", "+peek", "--calendar-id", "cal_1", "--as", "bot", "--dry-run"];
    const turn = await larkit(argv, (cmd) => {
      seen.push(structuredClone(cmd));
      return undefined;
    });
    assert.equal(turn.code, 0, turn.stderr);
    assert.deepEqual(seen.map((c) => [c.path, c.layer, c.service]), [[
      ["calendar", "+peek"],
      "shortcut",
      "calendar",
    ]]);
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
