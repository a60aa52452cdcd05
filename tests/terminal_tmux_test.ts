/**
 * Issue 23, acceptance: a person at a real terminal (tmux, with bash, zsh and fish) sees the agenda table fit
 * 80 and 120 columns, completion in each shell including a flag value, the confirmation prompt with its plan,
 * and progress lines on a terminal but none when piped. Skipped, saying so, where tmux/zsh/fish are missing
 * (`.ci/run` installs them). Every wait is bounded. With LARKIT_CAPTURES_DIR set, each screen is saved there
 * (the text captures of docs/terminal-captures.md).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasTool, terminal } from "./helpers/terminal.ts";

const TOOLS = ["tmux", "bash", "zsh", "fish"].filter((t) => !hasTool(t));
if (TOOLS.length) {
  console.error(`terminal_tmux_test: skipped, missing ${TOOLS.join(", ")} (CI installs them)`);
}
const ignore = TOOLS.length > 0;

async function save(name: string, text: string) {
  const dir = Deno.env.get("LARKIT_CAPTURES_DIR");
  if (dir) await Deno.writeTextFile(join(dir, `${name}.txt`), text.trimEnd() + "\n");
}

const BASH = ["bash", "--norc", "--noprofile"];
const DONE = "__done__";

for (const width of [80, 120]) {
  Deno.test({ name: `tmux: the agenda table at ${width} columns`, ignore }, async () => {
    const t = await terminal(width, BASH);
    try {
      await t.type(`larkit sandbox run --as user -- calendar +agenda --format table; echo ${DONE}`);
      await t.keys("Enter");
      const text = await t.until(new RegExp(`^${DONE}`, "m"));
      await save(`agenda_${width}`, text);
      assert.match(text, /^start–end +summary +organizer +location +my_rsvp/m);
      assert.match(text, /Daily stand-up/);
      // The table's lines (the typed command line may wrap; the table may not).
      const table = text.split("\n").filter((l) => /^(start–end|─|\d{4}-)/.test(l));
      assert.ok(table.length >= 6, text);
      for (const line of table) assert.ok([...line].length <= width, line);
    } finally {
      await t.close();
    }
  });
}

Deno.test({ name: "tmux: list shortcuts show their declared columns at 120 columns", ignore }, async () => {
  const t = await terminal(120, BASH);
  try {
    const tables: [string, string, RegExp][] = [
      ["tasks_120", "task +get-my-tasks", /^status +summary +due +guid$/m],
      ["mail_120", "mail +messages", /^date +from +subject +message_id$/m],
    ];
    for (const [name, command, header] of tables) {
      await t.keys("C-l");
      // A marker of its own: the previous table's may still be on the screen while this one runs.
      await t.type(`larkit sandbox run --as user -- ${command} --format table; echo ${DONE}${name}`);
      await t.keys("Enter");
      const text = await t.until(new RegExp(`^${DONE}${name}`, "m"));
      await save(name, text);
      assert.match(text, header);
      assert.doesNotMatch(text, /…/, "every declared column fits 120 columns uncut");
    }
  } finally {
    await t.close();
  }
});

// A shell loads larkit's completion, then Tab completes a flag's value on the line typed.
for (
  const { name, shell, load, typed, completed, capture } of [
    {
      name: "tmux: bash completes a flag value",
      shell: BASH,
      load: "source <(larkit completion bash)",
      typed: "larkit calendar +agenda --format ta",
      completed: /--format table/,
      capture: "completion_bash",
    },
    {
      name: "tmux: fish completes --as with a value and shows descriptions",
      shell: ["fish", "--no-config"],
      load: "larkit completion fish | source",
      typed: "larkit calendar +agenda --as b",
      completed: /--as bot/,
      capture: "completion_fish",
    },
  ]
) {
  Deno.test({ name, ignore }, async () => {
    const t = await terminal(120, shell);
    try {
      await t.type(load);
      await t.keys("Enter");
      await t.type(typed);
      await t.keys("Tab");
      const text = await t.until(completed);
      await save(capture, text);
    } finally {
      await t.close();
    }
  });
}

Deno.test(
  { name: "tmux: zsh completes `larkit im <TAB>` with descriptions, not `im im`", ignore },
  async () => {
    const t = await terminal(120, ["zsh", "-f"]);
    try {
      await t.type("autoload -Uz compinit && compinit -u && source <(larkit completion zsh)");
      await t.keys("Enter");
      await t.type("larkit im +chat-mem");
      await t.keys("Tab");
      await t.until(/larkit im \+chat-members-list/);
      await t.keys("C-u");
      await t.type("larkit im ");
      await t.keys("Tab");
      const text = await t.until(/\+messages-send/);
      await save("completion_zsh", text);
      assert.doesNotMatch(text, /larkit im im/);
      assert.match(text, /\+messages-send +-- +Send a message/);
      assert.match(text, /# larkit im\s*$/);
    } finally {
      await t.close();
    }
  },
);

Deno.test({ name: "tmux: the [y/N] prompt shows the plan; n refuses", ignore }, async () => {
  const t = await terminal(120, BASH);
  try {
    await t.type(
      `larkit sandbox run -- calendar calendars delete --params '{"calendar_id":"cal_x"}' --as bot; echo ${DONE}`,
    );
    await t.keys("Enter");
    await t.until(/Proceed\? \[y\/N\]/);
    await t.type("n");
    await t.keys("Enter");
    const text = await t.until(new RegExp(`^${DONE}`, "m"));
    await save("confirmation", text);
    assert.match(text, /is a high-risk write\. It will:\n {2}DELETE http\S+\/calendars\/cal_x/);
    assert.match(text, /not confirmed/);
  } finally {
    await t.close();
  }
});

Deno.test({ name: "tmux: --page-all progress on a terminal, none when piped", ignore }, async () => {
  const t = await terminal(120, BASH);
  try {
    const cmd =
      "larkit sandbox run -- calendar calendars list --as bot --page-all --page-size 1 --format ndjson";
    await t.type(`${cmd} >/dev/null; echo ${DONE}1`);
    await t.keys("Enter");
    const tty = await t.until(new RegExp(`^${DONE}1`, "m"));
    assert.match(tty, /\[page-all\] \d+ pages?, \d+ items so far/);
    assert.match(tty, /\[pagination\] streamed/);
    await t.keys("C-l");
    await t.type(`${cmd} 2>&1 >/dev/null | cat; echo ${DONE}2`);
    await t.keys("Enter");
    const piped = await t.until(new RegExp(`^${DONE}2`, "m"));
    await save("progress", `${tty.trimEnd()}\n${piped}`);
    assert.doesNotMatch(piped.slice(piped.indexOf("| cat")), /page-all\]|pagination\]/);
  } finally {
    await t.close();
  }
});
