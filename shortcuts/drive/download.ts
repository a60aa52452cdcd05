/**
 * `drive +download`: a Drive file saved locally. The body is written atomically (temp file + rename) to a
 * relative `--output` inside the working directory, by default the file's own name from the response; an
 * existing file is replaced only with `--overwrite`.
 */
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
  hasFormat: true,
  flags: {
    "file-token": flag.requiredString("file token (boxcn\u2026)"),
    output: flag.string("local path to save to, relative (default: the file's name)", {
      placeholder: "path",
    }),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const token = ctx.flags["file-token"];
    ctx.note({ output: ctx.flags.output ?? "<file name from the response>" });
    const saved = await ctx.download({
      path: `${FILES}/${encodeURIComponent(token)}/download`,
      output: ctx.flags.output,
      overwrite: ctx.flags.overwrite,
      nameOf: (headers) => fileNameOf(headers.get("content-disposition")),
      fallbackName: token,
    });
    await ctx.outFormat({ file_token: token, ...saved });
  },
});
