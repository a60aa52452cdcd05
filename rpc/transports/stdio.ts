/**
 * The stdio transport: one connection, newline-delimited JSON on stdin/stdout. stdout carries only protocol
 * messages; logs go to stderr. Lines come from the provider's stdin reader (the process's stdin is owned by
 * it), which cuts a line past the limit as it arrives instead of buffering all of it. Replies sent in one burst
 * go out in one write (`coalesce.ts`).
 */
import type { Reader, Writer } from "../../cli/provider.ts";
import { DEFAULT_MAX_LINE_BYTES } from "../framing.ts";
import type { LarkitAppServer, LocalConnection } from "../server.ts";
import { coalescingSink } from "./coalesce.ts";

export interface StdioOptions {
  input: Reader;
  output: Writer;
  maxLineBytes?: number;
}

/** Serves until stdin ends; the caller then closes the server. */
export async function serveStdio(server: LarkitAppServer, opts: StdioOptions): Promise<void> {
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let open = true;
  /** stdin ended and every reply owed was handed to the sink. */
  let ended = false;
  // A failed write means stdout is gone: the connection ends as if the peer had closed it.
  const sink = coalescingSink((text) => opts.output.write(text), () => connection.close());
  const connection: LocalConnection = server.connect("Stdio", {
    send: (message) => sink.send(message + "\n"),
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
        ended = true;
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
    // The replies owed after stdin's end are written before the server may exit; a close the server forced
    // (a slow consumer) does not wait for a peer that does not read.
    if (ended) await sink.flushed();
  }
}
