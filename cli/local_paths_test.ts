import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveOutputPath } from "./local_paths.ts";
import { testProvider } from "./test_provider.ts";

Deno.test("output paths stay inside the working directory, also through symlinks", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir());
  const elsewhere = await Deno.makeTempDir();
  await Deno.symlink(elsewhere, join(cwd, "link"));
  await Deno.mkdir(join(cwd, "dir"));
  const p = testProvider({ cwd });
  assert.equal(await resolveOutputPath(p, "output", "new/sub/file.txt"), join(cwd, "new", "sub", "file.txt"));
  assert.equal(await resolveOutputPath(p, "output", "./a/../b.txt"), join(cwd, "b.txt"));
  await assert.rejects(resolveOutputPath(p, "output", "/etc/passwd"), /must be a relative path/);
  await assert.rejects(resolveOutputPath(p, "output", "../x"), /outside the current directory/);
  await assert.rejects(resolveOutputPath(p, "output", "link/x.txt"), /leads outside the current directory/);
  await assert.rejects(resolveOutputPath(p, "output", "dir"), /is a directory/);
  await assert.rejects(resolveOutputPath(p, "output", "a\nb"), /control characters/);
});
