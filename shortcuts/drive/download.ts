/**
 * `drive +download`: a Drive file saved locally. The body is written atomically (temp file + rename) to a
 * relative `--output` inside the working directory, by default the file's own name from the response; an
 * existing file is replaced only with `--overwrite`.
 */
import { relative } from "node:path";
import { errors } from "../../cli/output/errors.ts";
import { resolveOutputPath } from "../../cli/local_paths.ts";
import { defineShortcut, flag } from "../declare.ts";

const FILES = "/open-apis/drive/v1/files";

/** The file name a Content-Disposition header carries (RFC 6266 `filename*` preferred), without any folder. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1];
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended.trim()) : plain?.trim();
  } catch {
    name = plain?.trim();
  }
  const base = name?.split(/[\\/]/).pop();
  return base && base !== "." && base !== ".." ? base : undefined;
}

export const download = defineShortcut({
  service: "drive",
  command: "+download",
  description: "Download a Drive file to a local path inside the working directory",
  examples: [
    "larkit drive +download --file-token boxcn123",
    "larkit drive +download --file-token boxcn123 --output ./downloads/report.pdf --overwrite",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("file token (boxcn…)"),
    output: flag.string("local path to save to, relative (default: the file's name)", {
      placeholder: "path",
    }),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async dryRun(ctx) {
    if (ctx.flags.output !== undefined) await resolveOutputPath(ctx.p, "output", ctx.flags.output);
    const path = `${FILES}/${encodeURIComponent(ctx.flags["file-token"])}/download`;
    return {
      api: [await ctx.plan({ method: "GET", path })],
      output: ctx.flags.output ?? "<file name from the response>",
    };
  },
  async execute(ctx) {
    const chosen = ctx.flags.output === undefined
      ? undefined
      : await resolveOutputPath(ctx.p, "output", ctx.flags.output);
    if (chosen && !ctx.flags.overwrite && await ctx.p.files.stat(chosen)) {
      throw errors.validation(`--output: ${ctx.flags.output} already exists`, {
        hint: "add --overwrite to replace it",
      });
    }
    const res = await ctx.client.raw({
      method: "GET",
      path: `${FILES}/${encodeURIComponent(ctx.flags["file-token"])}/download`,
      identity: ctx.identity,
    });
    const name = fileNameOf(res.headers.get("content-disposition")) ?? ctx.flags["file-token"];
    let path: string;
    try {
      path = chosen ?? await resolveOutputPath(ctx.p, "output", name);
      if (!chosen && !ctx.flags.overwrite && await ctx.p.files.stat(path)) {
        throw errors.validation(`${name} already exists in the current directory`, {
          hint: "add --overwrite to replace it, or choose another --output",
        });
      }
    } catch (e) {
      await res.body?.cancel();
      throw e;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    await ctx.p.files.writeFileAtomic(path, bytes);
    await ctx.out({
      file_token: ctx.flags["file-token"],
      saved_path: relative(await ctx.p.files.realPath(ctx.p.cwd), path),
      size_bytes: bytes.length,
      content_type: res.headers.get("content-type") ?? undefined,
    });
  },
});
