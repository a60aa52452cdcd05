/**
 * markdown +diff, +patch and +overwrite end to end against the emulator: the main paths, a round trip through
 * +fetch (the same file token, the new text byte for byte), dry runs that send nothing, the --base-sha256 guard,
 * and bad inputs refused before anything is sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Larkit, suiteCalls, withSuite } from "./helpers/suite_session.ts";
import type { Emulator } from "./helpers/emulator.ts";

const ORIGINAL =
  "# Plan\n\nStatus: draft\n\n![chart](img_v3_abc)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nOwner: Alice\n";

type Ok<T> = { data: T };

async function stored(larkit: Larkit, cwd: string): Promise<string> {
  await Deno.writeTextFile(join(cwd, "plan.md"), ORIGINAL);
  const up = await larkit(["markdown", "+create", "--file", "plan.md"], { cwd });
  assert.equal(up.code, 0, up.stderr);
  return up.json<Ok<{ file_token: string }>>().data.file_token;
}

async function fetched(larkit: Larkit, cwd: string, token: string): Promise<string> {
  const r = await larkit(
    ["markdown", "+fetch", "--file-token", token, "--output", "copy.md", "--overwrite"],
    { cwd },
  );
  assert.equal(r.code, 0, r.stderr);
  return await Deno.readTextFile(join(cwd, "copy.md"));
}

const sent = (emu: Emulator) => suiteCalls(emu).map((q) => `${q.method} ${q.path.replace("/open-apis", "")}`);

Deno.test("markdown +diff: a unified diff stored → local, identical when equal; dry run sends nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const token = await stored(larkit, cwd);
    await Deno.writeTextFile(join(cwd, "mine.md"), ORIGINAL.replace("Status: draft", "Status: final"));
    emu.clearRequests();
    const r = await larkit([
      "markdown",
      "+diff",
      "--file-token",
      token,
      "--file",
      "mine.md",
      "--context-lines",
      "1",
    ], {
      cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const d = r.json<
      Ok<{ identical: boolean; added: number; removed: number; diff: string; remote_sha256: string }>
    >()
      .data;
    assert.deepEqual(sent(emu), [`GET /drive/v1/files/${token}/download`]);
    assert.equal(d.identical, false);
    assert.equal(d.added, 1);
    assert.equal(d.removed, 1);
    assert.equal(
      d.diff,
      `--- drive/${token}\n+++ mine.md\n@@ -2,3 +2,3 @@\n \n-Status: draft\n+Status: final\n \n`,
    );
    assert.match(d.remote_sha256, /^[0-9a-f]{64}$/);

    const same = await larkit(["markdown", "+diff", "--file-token", token, "--file", "plan.md"], { cwd });
    assert.equal(same.json<Ok<{ identical: boolean; diff: string }>>().data.identical, true);

    emu.clearRequests();
    const dry = await larkit(["markdown", "+diff", "--file-token", token, "--file", "mine.md", "--dry-run"], {
      cwd,
    });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(emu.requests(), []);
    assert.equal(dry.json<Ok<{ api: { method: string }[] }>>().data.api[0].method, "GET");

    const bad = await larkit(["markdown", "+diff", "--file-token", token, "--file", "missing.md"], { cwd });
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(bad.errorJson().error.type, "validation");
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("markdown +patch: replaces every match in place (same token), images and tables untouched; guards", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const token = await stored(larkit, cwd);
    emu.clearRequests();
    const r = await larkit([
      "markdown",
      "+patch",
      "--file-token",
      token,
      "--pattern",
      "Status: draft",
      "--content",
      "Status: final",
    ], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const p = r.json<Ok<{ file_token: string; replacements: number; sha256: string }>>().data;
    assert.equal(p.file_token, token);
    assert.equal(p.replacements, 1);
    assert.deepEqual(sent(emu), [`GET /drive/v1/files/${token}/download`, "POST /drive/v1/files/upload_all"]);
    const after = ORIGINAL.replace("Status: draft", "Status: final");
    assert.equal(await fetched(larkit, cwd, token), after);

    // A regex with groups; then a stale --base-sha256 is refused and nothing is uploaded.
    const rx = await larkit(
      [
        "markdown",
        "+patch",
        "--file-token",
        token,
        "--pattern",
        "Owner: (\\w+)",
        "--regex",
        "--content",
        "By: $1",
      ],
      { cwd },
    );
    assert.equal(rx.code, 0, rx.stderr);
    const now = await fetched(larkit, cwd, token);
    assert.equal(now, after.replace("Owner: Alice", "By: Alice"));
    emu.clearRequests();
    const stale = await larkit([
      "markdown",
      "+patch",
      "--file-token",
      token,
      "--pattern",
      "Plan",
      "--content",
      "Roadmap",
      "--base-sha256",
      p.sha256,
    ], { cwd });
    assert.equal(stale.code, 2, stale.stderr);
    assert.match(stale.errorJson().error.message, /changed since/);
    assert.deepEqual(sent(emu), [`GET /drive/v1/files/${token}/download`]);
    assert.equal(await fetched(larkit, cwd, token), now);

    // No match: nothing is written.
    emu.clearRequests();
    const none = await larkit([
      "markdown",
      "+patch",
      "--file-token",
      token,
      "--pattern",
      "zzz",
      "--content",
      "y",
    ], {
      cwd,
    });
    assert.equal(none.code, 2);
    assert.match(none.errorJson().error.message, /matches nothing/);
    assert.deepEqual(sent(emu), [`GET /drive/v1/files/${token}/download`]);

    emu.clearRequests();
    const dry = await larkit(
      ["markdown", "+patch", "--file-token", token, "--pattern", "a", "--content", "b", "--dry-run"],
      { cwd },
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(emu.requests(), []);
    assert.equal(dry.json<Ok<{ api: unknown[] }>>().data.api.length, 2);

    const bad = await larkit(
      ["markdown", "+patch", "--file-token", token, "--pattern", "(", "--regex", "--content", "b"],
      { cwd },
    );
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /regular expression/);
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("markdown +overwrite: new content for the same token, round trip via +fetch; base guard; bad input", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const token = await stored(larkit, cwd);
    await Deno.writeTextFile(join(cwd, "new.md"), "# Plan v2\n\nAll new.\n");
    const d = await larkit(["markdown", "+diff", "--file-token", token, "--file", "new.md"], { cwd });
    const base = d.json<Ok<{ remote_sha256: string }>>().data.remote_sha256;

    emu.clearRequests();
    const r = await larkit([
      "markdown",
      "+overwrite",
      "--file-token",
      token,
      "--file",
      "new.md",
      "--base-sha256",
      base,
    ], {
      cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<Ok<{ file_token: string }>>().data.file_token, token);
    assert.deepEqual(sent(emu), [`GET /drive/v1/files/${token}/download`, "POST /drive/v1/files/upload_all"]);
    assert.equal(await fetched(larkit, cwd, token), "# Plan v2\n\nAll new.\n");

    // The same base again: the file changed since, so the second overwrite is refused.
    emu.clearRequests();
    const stale = await larkit(
      ["markdown", "+overwrite", "--file-token", token, "--content", "# lost?", "--base-sha256", base],
      { cwd },
    );
    assert.equal(stale.code, 2, stale.stderr);
    assert.match(stale.errorJson().error.message, /changed since/);
    assert.equal(await fetched(larkit, cwd, token), "# Plan v2\n\nAll new.\n");

    // --content without a guard: one upload, nothing fetched.
    emu.clearRequests();
    const inline = await larkit(["markdown", "+overwrite", "--file-token", token, "--content", "# v3"], {
      cwd,
    });
    assert.equal(inline.code, 0, inline.stderr);
    assert.deepEqual(sent(emu), ["POST /drive/v1/files/upload_all"]);
    assert.equal(await fetched(larkit, cwd, token), "# v3");
    // Only the final newline differs: no changed lines, but not identical either.
    await Deno.writeTextFile(join(cwd, "v3.md"), "# v3\n");
    const nl = await larkit([
      "markdown",
      "+diff",
      "--file-token",
      token,
      "--file",
      "v3.md",
      "--format",
      "pretty",
    ], {
      cwd,
    });
    assert.equal(nl.code, 0, nl.stderr);
    assert.equal(nl.stdout.trim(), "only the final newline differs");

    emu.clearRequests();
    const dry = await larkit([
      "markdown",
      "+overwrite",
      "--file-token",
      token,
      "--file",
      "new.md",
      "--dry-run",
    ], {
      cwd,
    });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(emu.requests(), []);

    const bad = await larkit(
      ["markdown", "+overwrite", "--file-token", token, "--file", "new.md", "--content", "x"],
      { cwd },
    );
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /exactly one of --file or --content/);
    assert.deepEqual(emu.requests(), []);
  });
});

const DOC = "doxcnSandboxDoc0001";

Deno.test("docs cover: +resource-update, +resource-download round trip, +resource-delete (twice is harmless)", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "cover.png"), "PNG-COVER");
    const made = await larkit(["docs", "+create", "--markdown", "# Plan", "--as", "bot"]);
    assert.equal(made.code, 0, made.stderr);
    const DOC = made.json<Ok<{ doc_id: string }>>().data.doc_id;
    emu.clearRequests();
    const up = await larkit([
      "docs",
      "+resource-update",
      "--doc",
      DOC,
      "--file",
      "cover.png",
      "--offset-ratio-y",
      "0.4",
    ], {
      cwd,
    });
    assert.equal(up.code, 0, up.stderr);
    const cover = up.json<Ok<{ cover_token: string }>>().data.cover_token;
    assert.deepEqual(sent(emu), ["POST /drive/v1/medias/upload_all", `PATCH /docx/v1/documents/${DOC}`]);

    const down = await larkit(["docs", "+resource-download", "--doc", DOC, "--output", "got.png"], { cwd });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(down.json<Ok<{ cover_token: string }>>().data.cover_token, cover);
    assert.equal(await Deno.readTextFile(join(cwd, "got.png")), "PNG-COVER");

    emu.clearRequests();
    const del = await larkit(["docs", "+resource-delete", "--doc", DOC], { cwd });
    assert.equal(del.code, 0, del.stderr);
    assert.equal(del.json<Ok<{ deleted: boolean }>>().data.deleted, true);
    assert.deepEqual(sent(emu), [`GET /docx/v1/documents/${DOC}`, `PATCH /docx/v1/documents/${DOC}`]);
    emu.clearRequests();
    const again = await larkit(["docs", "+resource-delete", "--doc", DOC], { cwd });
    assert.equal(again.json<Ok<{ deleted: boolean }>>().data.deleted, false);
    assert.deepEqual(sent(emu), [`GET /docx/v1/documents/${DOC}`]);

    const none = await larkit(["docs", "+resource-download", "--doc", DOC, "--output", "none.png"], { cwd });
    assert.equal(none.errorJson().error.subtype, "not_found");
  });
});

Deno.test("docs cover shortcuts: dry runs send nothing; bad inputs refused before sending", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "cover.png"), "PNG-COVER");
    const runs: [string[], string[], RegExp][] = [
      [
        ["+resource-download", "--doc", DOC, "--output", "c.png"],
        ["+resource-download", "--doc", DOC],
        /output/,
      ],
      [
        ["+resource-update", "--doc", DOC, "--file", "cover.png"],
        ["+resource-update", "--doc", DOC, "--file", "cover.png", "--offset-ratio-x", "2"],
        /offset-ratio-x/,
      ],
      [["+resource-delete", "--doc", DOC], ["+resource-delete", "--doc", DOC, "--type", "banner"], /type/],
    ];
    for (const [good, bad, says] of runs) {
      emu.clearRequests();
      const dry = await larkit(["docs", ...good, "--dry-run"], { cwd });
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(emu.requests(), []);
      const r = await larkit(["docs", ...bad], { cwd });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.errorJson().error.type, "validation");
      assert.match(r.errorJson().error.message, says);
      assert.deepEqual(emu.requests(), []);
    }
  });
});
