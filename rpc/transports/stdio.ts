/**
 * The stdio transport: one connection, newline-delimited JSON on stdin/stdout. stdout carries only protocol
 * messages; logs go to stderr. Lines come from the provider's stdin reader (the process's stdin is owned by
 * it), which cuts a line past the limit as it arrives instead of buffering all of it.
 */
import type { Reader, Writer } from "../../cli/provider.ts";
import { DEFAULT_MAX_LINE_BYTES } from "../framing.ts";
import type { LarkitAppServer } from "../server.ts";

export interface StdioOptions {
  input: Reader;
  output: Writer;
  maxLineBytes?: number;
}

/** Serves until stdin ends; the caller then closes the server. */
export async function serveStdio(server: LarkitAppServer, opts: StdioOptions): Promise<void> {
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let open = true;
  const connection = server.connect("Stdio", {
    send: (message) => opts.output.write(message + "\n"),
    close: () => {
      open = false;
    },
  }, "stdio");
  const encoder = new TextEncoder();
  try {
    while (open) {
      // Bounded by the limit, so an endless line costs at most the limit in memory, then is rejected.
      const raw = await opts.input.readLine(maxLineBytes);
      if (raw === null) {
        await connection.drain();
        break;
      }
      const line = raw.replace(/\r$/, "");
      if (line.trim().length === 0) continue;
      const bytes = encoder.encode(line).length;
      if (bytes > maxLineBytes) {
        await connection.rejectFrame(`line of ${bytes} bytes exceeds the ${maxLineBytes}-byte limit`);
      } else {
        await connection.receive(line);
      }
    }
  } finally {
    connection.close();
  }
}
