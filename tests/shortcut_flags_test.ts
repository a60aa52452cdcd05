/**
 * Issue 23.7: one flag name for one idea across the shortcuts. The reference CLI's names are the standard
 * (`/work/shared/reference/lark-cli-shortcuts-v1.0.89.jsonl`, vendored as `tests/fixtures/reference_flags.json`):
 * a second name for page size, page token, every page, user id, chat id, time range or output file is allowed
 * only where the reference's own shortcut uses that very name. A renamed flag keeps its old name as a hidden,
 * deprecated alias that still works and says `warning:` on stderr, so scripts do not break.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { FlagSpecs, Shortcut } from "../shortcuts/declare.ts";
import { loadAllShortcuts } from "../shortcuts/index.ts";
import { runCli } from "./helpers/run_cli.ts";
import { withSuite } from "./helpers/suite_session.ts";

const SHORTCUTS = await loadAllShortcuts();
const REFERENCE: Record<string, string[]> = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/reference_flags.json", import.meta.url)),
);

interface Idea {
  /** larkit's (and the reference's) name for it. */
  standard: string;
  /** Other names people reach for. */
  synonyms: string[];
  /** A synonym means this idea only when its help text says so (`--to` is a recipient in mail, a time elsewhere). */
  says: RegExp;
}

const IDEAS: Record<string, Idea> = {
  "page size": {
    standard: "page-size",
    synonyms: ["limit", "max", "per-page", "size", "count"],
    says: /page/i,
  },
  "page token": {
    standard: "page-token",
    synonyms: ["cursor", "next", "next-token", "page", "continuation"],
    says: /page|cursor|previous answer/i,
  },
  "every page": { standard: "page-all", synonyms: ["all", "all-pages", "fetch-all"], says: /page/i },
  "user id": {
    standard: "user-id",
    synonyms: ["user", "uid", "open-id", "user-open-id", "userid"],
    says: /open_id|ou_|user/i,
  },
  "chat id": {
    standard: "chat-id",
    synonyms: ["chat", "group-id", "chat-open-id", "receive-id"],
    says: /chat|oc_/i,
  },
  "range start": {
    standard: "start",
    synonyms: ["start-time", "from", "since", "begin", "after", "time-min"],
    says: /time|date|unix/i,
  },
  "range end": {
    standard: "end",
    synonyms: ["end-time", "to", "until", "before", "time-max"],
    says: /time|date|unix/i,
  },
  "output file": {
    standard: "output",
    synonyms: ["out", "output-file", "output-path", "save-to", "output-dir", "file-name"],
    says: /save|local path|write|director/i,
  },
};

const nameOf = (s: Shortcut<FlagSpecs>) => `${s.service} ${s.command}`;

/** The reference's flags for a shortcut (under its name or one of its aliases); undefined: not in the reference. */
function referenceFlags(s: Shortcut<FlagSpecs>): string[] | undefined {
  for (const command of [s.command, ...(s.aliases ?? [])]) {
    const flags = REFERENCE[`${s.service} ${command}`];
    if (flags) return flags;
  }
  return undefined;
}

Deno.test("the vendored reference flags are the reference CLI's", () => {
  assert.ok(Object.keys(REFERENCE).length >= 400, "reference_flags.json lost its entries");
  assert.deepEqual(REFERENCE["drive +export-download"], [
    "file-token",
    "file-name",
    "output-dir",
    "overwrite",
  ]);
});

Deno.test("one name for one idea: a second name only where the reference itself uses it", () => {
  const second: string[] = [];
  const standardUses = new Map<string, number>();
  for (const s of SHORTCUTS) {
    const theirs = referenceFlags(s) ?? [];
    for (const [name, spec] of Object.entries(s.flags)) {
      if (spec.deprecated) continue;
      for (const [idea, { standard, synonyms, says }] of Object.entries(IDEAS)) {
        if (name === standard) standardUses.set(idea, (standardUses.get(idea) ?? 0) + 1);
        if (!synonyms.includes(name) || !says.test(spec.description) || theirs.includes(name)) continue;
        second.push(
          `${nameOf(s)} --${name} (${idea}: use --${standard}, keep --${name} as a deprecated alias)`,
        );
      }
    }
  }
  assert.deepEqual(second, []);
  // Each idea's standard name is in use, so the walk saw the flags it judges.
  for (const idea of Object.keys(IDEAS)) {
    assert.ok((standardUses.get(idea) ?? 0) > 0, `no shortcut uses ${idea}`);
  }
});

Deno.test("a deprecated flag names flags of the same shortcut that replace it", () => {
  let deprecated = 0;
  for (const s of SHORTCUTS) {
    for (const [name, spec] of Object.entries(s.flags)) {
      if (!spec.deprecated) continue;
      deprecated++;
      const named = [...spec.deprecated.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]);
      assert.ok(named.length > 0, `${nameOf(s)} --${name}: "${spec.deprecated}" names no flag`);
      for (const n of named) {
        assert.ok(s.flags[n] && !s.flags[n].deprecated, `${nameOf(s)}: --${n} is no flag`);
      }
    }
  }
  assert.ok(deprecated > 0);
});

Deno.test("drive +export-download: --output-dir and --file-name; the old --output is hidden, works, warns", async () => {
  const help = await runCli(["drive", "+export-download", "--help"]);
  assert.match(help.stdout, /--output-dir/);
  assert.match(help.stdout, /--file-name/);
  assert.doesNotMatch(help.stdout, /--output </);
  await withSuite(async (_emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const token = ["drive", "+export-download", "--file-token", "boxcnexp0001"];
    const standard = await larkit([...token, "--output-dir", "exports", "--file-name", "plan.pdf"], { cwd });
    assert.equal(standard.code, 0, standard.stderr);
    assert.doesNotMatch(standard.stderr, /warning/);
    assert.equal(
      standard.json<{ data: { saved_path: string } }>().data.saved_path,
      join("exports", "plan.pdf"),
    );
    assert.ok(await Deno.stat(join(cwd, "exports", "plan.pdf")));

    const old = await larkit([...token, "--output", "old.pdf"], { cwd });
    assert.equal(old.code, 0, old.stderr);
    assert.match(
      old.stderr,
      /^warning: --output is deprecated and will be removed: use --output-dir and --file-name/m,
    );
    assert.ok(await Deno.stat(join(cwd, "old.pdf")));

    const both = await larkit([...token, "--output", "x.pdf", "--file-name", "y.pdf"], { cwd });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give one or the other/);
  });
});
