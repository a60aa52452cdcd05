/**
 * Comparing and editing a markdown file kept in Drive: `+diff` (the stored text against a local file), `+patch`
 * (find/replace in the stored text, uploaded back as a new version of the same file) and `+overwrite` (new
 * content for the same file). The text is edited as text: nothing is converted, so nothing else is touched.
 * `--base-sha256` (printed by `+diff`, `+patch` and `+overwrite`) refuses a write when someone else changed the
 * file since: Drive has no revision precondition on uploads, so the check compares the current text's hash
 * right before uploading.
 */
import { basename } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { tokenOf } from "../drive/common.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";
import { compilePattern, replaceAll, unifiedDiff } from "./text_diff.ts";

/** The text is held in memory: the one-shot upload's limit bounds it either way. */
const MAX_TEXT = SINGLE_UPLOAD_MAX;

const baseFlag = flag.string(
  "refuse unless the stored text still has this SHA-256 (hex; from an earlier +diff, +patch or +overwrite)",
  { placeholder: "hex" },
);

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest).toHex();
}

// deno-lint-ignore no-explicit-any
type Ctx = ShortcutContext<any>;

function remoteText(ctx: Ctx, token: string): Promise<string | undefined> {
  return ctx.fetchText({
    path: `/open-apis/drive/v1/files/${encodeURIComponent(token)}/download`,
    description: "the stored text",
    maxBytes: MAX_TEXT,
  });
}

function checkBase(base: string | undefined): string | undefined {
  if (base !== undefined && !/^[0-9a-f]{64}$/i.test(base)) {
    throw errors.validation("--base-sha256 must be 64 hex digits");
  }
  return base?.toLowerCase();
}

async function guardBase(text: string, base: string | undefined): Promise<void> {
  if (base === undefined) return;
  const now = await sha256(text);
  if (now !== base) {
    throw errors.validation(
      `the file changed since ${base.slice(0, 12)}\u2026 (now ${
        now.slice(0, 12)
      }\u2026); nothing was written`,
      {
        hint: "run markdown +diff to see the current text, then retry with its remote_sha256",
      },
    );
  }
}

/** Uploads `text` as the new version of the file `token` (the same token afterwards). */
async function uploadVersion(ctx: Ctx, token: string, name: string, text: string | undefined) {
  const bytes = new TextEncoder().encode(text ?? "");
  if (bytes.length > MAX_TEXT) throw errors.validation(`the new text is larger than ${MAX_TEXT} bytes`);
  return await ctx.uploadBytes({
    path: "/open-apis/drive/v1/files/upload_all",
    description: "the new version of the same file",
    fields: {
      file_name: name,
      parent_type: "explorer",
      parent_node: "",
      size: String(bytes.length),
      file_token: token,
    },
    file: { field: "file", name, bytes },
    response: z.object({ file_token: z.string() }),
    planned: { file_token: token },
  });
}

export const diff = defineShortcut({
  service: "markdown",
  command: "+diff",
  description: "Compare a markdown file in Drive with a local file, as a unified diff (stored \u2192 local)",
  examples: [
    "larkit markdown +diff --file-token boxcnAbc123 --file notes.md",
    "larkit markdown +diff --file-token boxcnAbc123 --file notes.md --context-lines 1 --format pretty",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
  hasFormat: true,
  flags: {
    "file-token": flag.requiredString("the markdown file's token"),
    file: flag.requiredString("the local file to compare with", { placeholder: "path" }),
    "context-lines": flag.integer("unchanged lines shown around each change", {
      default: 3,
      min: 0,
      max: 100,
    }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const token = tokenOf(f["file-token"], "file-token");
    const local = await ctx.localText("file", f.file, { maxBytes: MAX_TEXT });
    const remote = await remoteText(ctx, token);
    if (remote === undefined) return;
    const d = unifiedDiff(remote, local, [`drive/${token}`, f.file], f["context-lines"]);
    await ctx.outFormat(
      {
        file_token: token,
        // Line diffs ignore a missing final newline; `identical` is byte for byte.
        identical: remote === local,
        added: d.added,
        removed: d.removed,
        remote_sha256: await sha256(remote),
        diff: d.patch,
      },
      undefined,
      (data) => {
        const r = data as { diff: string; identical: boolean };
        return r.diff || (r.identical ? "identical\n" : "only the final newline differs\n");
      },
    );
  },
});

export const overwrite = defineShortcut({
  service: "markdown",
  command: "+overwrite",
  description:
    "Replace a markdown file's content in Drive (same file token, a new version); --base-sha256 guards",
  examples: [
    "larkit markdown +overwrite --file-token boxcnAbc123 --file notes.md",
    "larkit markdown +overwrite --file-token boxcnAbc123 --content '# Plan' --base-sha256 <remote_sha256>",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["drive:file:upload", "drive:file:download"],
    bot: ["drive:file:upload", "drive:file:download"],
  },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("the markdown file's token"),
    file: flag.string("local file with the new content", { placeholder: "path" }),
    content: flag.string("the new content (@file or - for stdin)", { input: ["file", "stdin"] }),
    name: flag.string("file name sent with the upload (default: the local name, else <token>.md)"),
    "base-sha256": baseFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const token = tokenOf(f["file-token"], "file-token");
    if ((f.file === undefined) === (f.content === undefined)) {
      throw errors.validation("give exactly one of --file or --content");
    }
    const base = checkBase(f["base-sha256"]);
    const text = f.file !== undefined
      ? await ctx.localText("file", f.file, { maxBytes: MAX_TEXT })
      : f.content!;
    if (base !== undefined) {
      const now = await remoteText(ctx, token);
      if (now !== undefined) await guardBase(now, base);
    }
    const name = f.name ?? (f.file !== undefined ? basename(f.file) : `${token}.md`);
    const { file_token } = await uploadVersion(ctx, token, name, text);
    await ctx.out({ file_token, size: new TextEncoder().encode(text).length, sha256: await sha256(text) });
  },
});

export const patch = defineShortcut({
  service: "markdown",
  command: "+patch",
  description:
    "Find/replace in a markdown file in Drive, uploaded back as a new version of the same file; no match, no write",
  examples: [
    "larkit markdown +patch --file-token boxcnAbc123 --pattern 'Status: draft' --content 'Status: final'",
    "larkit markdown +patch --file-token boxcnAbc123 --pattern 'v[0-9]+' --regex --content v2 --base-sha256 <hex>",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["drive:file:download", "drive:file:upload"],
    bot: ["drive:file:download", "drive:file:upload"],
  },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("the markdown file's token"),
    pattern: flag.requiredString("the text to find (every occurrence), or a regex with --regex"),
    content: flag.requiredString("the replacement (with --regex, $1 \u2026 refer to groups)", {
      input: ["file", "stdin"],
    }),
    regex: flag.boolean("--pattern is a JavaScript regular expression"),
    name: flag.string("file name sent with the upload (default: <token>.md)"),
    "base-sha256": baseFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const token = tokenOf(f["file-token"], "file-token");
    const base = checkBase(f["base-sha256"]);
    // Compiled before anything is fetched: a bad regex fails the dry run too.
    const pattern = compilePattern(f.pattern, f.regex);
    const before = await remoteText(ctx, token);
    if (before !== undefined) await guardBase(before, base);
    const edited = before === undefined ? undefined : replaceAll(before, pattern, f.content, f.regex);
    const { file_token } = await uploadVersion(ctx, token, f.name ?? `${token}.md`, edited?.text);
    if (!edited || before === undefined) return;
    const d = unifiedDiff(before, edited.text, ["before", "after"], 0);
    await ctx.out({
      file_token,
      replacements: edited.replacements,
      added: d.added,
      removed: d.removed,
      sha256: await sha256(edited.text),
    });
  },
});
