import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../cli/output/errors.ts";
import { testProvider } from "../cli/test_provider.ts";
import { flag } from "./declare.ts";
import { resolveFlags } from "./inputs.ts";

const specs = {
  text: flag.string("text", { input: ["file", "stdin"] }),
  note: flag.string("note", { input: ["stdin"] }),
  plain: flag.string("no inputs"),
  data: flag.json("json", { input: ["file"] }),
  mode: flag.choice(["a", "b"] as const, "mode", { default: "a" }),
  size: flag.integer("size", { default: 20, min: 1, max: 50 }),
  id: flag.requiredString("id"),
};

async function workdir() {
  const dir = await Deno.makeTempDir();
  const cwd = join(dir, "work");
  await Deno.mkdir(join(cwd, "sub"), { recursive: true });
  await Deno.writeTextFile(join(cwd, "msg.txt"), "from a file");
  await Deno.writeTextFile(join(cwd, "data.json"), '{"k":[1,2]}');
  await Deno.writeTextFile(join(cwd, "bad.json"), "{k:");
  await Deno.writeTextFile(join(dir, "secret.txt"), "outside");
  await Deno.symlink(join(dir, "secret.txt"), join(cwd, "link.txt"));
  return cwd;
}

async function resolveWith(raw: Record<string, string | undefined>, stdin = "") {
  const p = testProvider({ cwd: await workdir(), stdin });
  return resolveFlags(p, specs, { id: "x", ...raw }, "larkit t +t --help");
}

async function rejects(raw: Record<string, string | undefined>, pattern: RegExp, stdin = "") {
  await assert.rejects(() => resolveWith(raw, stdin), (e: unknown) => {
    assert.ok(e instanceof LarkitError, String(e));
    assert.equal(e.type, "validation");
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("values: defaults, @file, stdin, @@ literal, JSON parsed, integers and choices typed", async () => {
  const v = await resolveWith(
    { text: "@msg.txt", note: "-", plain: "@msg.txt", data: "@data.json" },
    " piped \n",
  );
  assert.deepEqual(v, {
    text: "from a file",
    note: "piped",
    plain: "@msg.txt",
    data: { k: [1, 2] },
    mode: "a",
    size: 20,
    id: "x",
  });
  assert.equal((await resolveWith({ text: "@@handle" })).text, "@handle");
  assert.equal((await resolveWith({ size: "7", mode: "b" })).size, 7);
});

Deno.test("file inputs: missing, directory, absolute, outside via .. or symlink — each names the flag", async () => {
  await rejects({ text: "@nope.txt" }, /^--text: file not found/);
  await rejects({ text: "@sub" }, /^--text: sub is a directory/);
  await rejects({ text: "@/etc/hostname" }, /^--text: file path must be relative/);
  await rejects({ text: "@../secret.txt" }, /^--text: file is outside the current directory/);
  await rejects({ text: "@link.txt" }, /^--text: file is outside the current directory/);
  await rejects({ text: "@" }, /^--text: file path is empty/);
});

Deno.test("stdin: only one flag may read it, and empty stdin is an error", async () => {
  await rejects({ text: "-", note: "-" }, /^--note: stdin \(-\) can only be used by one flag/, "x");
  await rejects({ text: "-" }, /^--text: stdin is empty/, "");
});

Deno.test("types: invalid JSON, out-of-range integer, unknown choice, missing required flag", async () => {
  await rejects({ data: "@bad.json" }, /^--data: invalid JSON/);
  await rejects({ size: "99" }, /invalid value "99" for --size/);
  await rejects({ size: "ten" }, /invalid value "ten" for --size: must be an integer/);
  // The choices once: the schema's message already lists them.
  await rejects({ mode: "c" }, /invalid value "c" for --mode: must be one of: a, b$/);
  await rejects({ id: undefined }, /^--id is required$/);
});
