/**
 * The table-driven shortcut test every service shares: per shortcut its main path (exit 0, an ok document, the
 * requests it names sent), its dry run (nothing sent, the plan fits the registry's request schemas) and one bad
 * input (exit 2, a validation error saying what is wrong, nothing sent); plus, optionally, a test that every
 * shortcut of the services has a case, so a new shortcut cannot land untested.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadShortcuts } from "../../shortcuts/index.ts";
import type { Emulator } from "./emulator.ts";
import { dryRunProblems, type Planned } from "./plan_fit.ts";
import { suiteCalls, withSuite } from "./suite_session.ts";

export interface ShortcutCase {
  /** The main path's flags (after `<service> <command>`); the dry run adds `--dry-run`. */
  argv: string[];
  /** Run as the user (default: the file's `asUser`). */
  asUser?: boolean;
  /** Identities the main path runs as, in turn (true: the user); default the file's `runAs`, else `asUser`. */
  runAs?: boolean[];
  /** Objects the suite already has (its generic store), before the main path. */
  setup?: (emu: Emulator) => void;
  /** Files each run needs in its working directory. */
  files?: Record<string, string>;
  /** Requests (method + path after /open-apis, URI-decoded) the main path must send. */
  sends: string[];
  /** A bad command line: refused with exit 2 before anything is sent. */
  bad: string[];
  /** What the bad input's message says. */
  says: RegExp;
}

export interface ShortcutCaseOptions {
  /** The test that every shortcut of `services` has a case here or is listed in `elsewhere`. */
  coverage?: {
    title: string;
    services: string[];
    /** Shortcuts tested in another file (or by a dedicated test of this one). */
    elsewhere?: string[];
    /** The fewest shortcuts the services must have (a registry that lost some is a failure too). */
    atLeast?: number;
  };
  /** The identity of every run a case does not set (default: the bot). */
  asUser?: boolean;
  /** Identities every main path runs as, unless a case sets its own. */
  runAs?: boolean[];
  /** Planned requests outside the registry (e.g. uploads, whose multipart body the schemas do not describe). */
  unplanned?: RegExp;
  /** Objects the suite already has for every case of the file (the emulator answers only from its state). */
  setup?: (emu: Emulator) => void;
}

/** Registers the coverage test (when asked) and one test per case. */
export function shortcutCaseTests(cases: Record<string, ShortcutCase>, opts: ShortcutCaseOptions = {}): void {
  const { coverage } = opts;
  if (coverage) {
    Deno.test(coverage.title, async () => {
      const mine = (await Promise.all(coverage.services.map(loadShortcuts))).flat().map((s) =>
        `${s.service} ${s.command}`
      );
      assert.deepEqual([...Object.keys(cases), ...coverage.elsewhere ?? []].sort(), mine.sort());
      if (coverage.atLeast !== undefined) assert.ok(mine.length >= coverage.atLeast);
    });
  }

  for (const [name, c] of Object.entries(cases)) {
    Deno.test(`${name}: main path, a dry run that sends nothing and fits the registry, a bad input`, async () => {
      await withSuite(async (emu, larkit) => {
        const asUser = c.asUser ?? opts.asUser;
        // Two directories: the main run's --output file would (rightly) be refused by the dry run's.
        const [cwd, dryCwd] = [await Deno.makeTempDir(), await Deno.makeTempDir()];
        for (const dir of [cwd, dryCwd]) {
          for (const [f, text] of Object.entries(c.files ?? {})) await Deno.writeTextFile(join(dir, f), text);
        }
        const cmd = name.split(" ");
        opts.setup?.(emu);
        c.setup?.(emu);
        for (const as of c.runAs ?? opts.runAs ?? [asUser]) {
          emu.clearRequests();
          const r = await larkit([...cmd, ...c.argv], { asUser: as, cwd });
          assert.equal(r.code, 0, r.stderr);
          assert.ok(r.json<{ ok: boolean }>().ok);
          const sent = suiteCalls(emu).map((q) =>
            `${q.method} ${decodeURIComponent(q.path.replace("/open-apis", ""))}`
          );
          for (const want of c.sends) {
            assert.ok(sent.includes(want), `${name}: ${want} not in ${sent.join(", ")}`);
          }
        }

        emu.clearRequests();
        const dry = await larkit([...cmd, ...c.argv, "--dry-run"], { asUser, cwd: dryCwd });
        assert.equal(dry.code, 0, dry.stderr);
        assert.deepEqual(emu.requests(), []);
        const planned = dry.json<{ data: { api: Planned[] } }>().data.api.filter((p) =>
          !opts.unplanned?.test(p.url)
        );
        assert.deepEqual(await dryRunProblems(planned), []);

        const bad = await larkit([...cmd, ...c.bad], { asUser, cwd });
        assert.equal(bad.code, 2, bad.stderr);
        assert.equal(bad.errorJson().error.type, "validation");
        assert.match(bad.errorJson().error.message, c.says);
        assert.deepEqual(suiteCalls(emu), []);
      });
    });
  }
}
