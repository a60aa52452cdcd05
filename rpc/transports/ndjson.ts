/**
 * One connection over a byte stream pair with newline-delimited JSON (stdio, unix socket). Reads are pulled
 * only as fast as the connection takes frames, and each reply is written (and awaited) before the next, so both
 * directions stay bounded.
 */
import type { Origin } from "../connection.ts";
import type { LarkitAppServer } from "../server.ts";
import { DEFAULT_MAX_LINE_BYTES, lineSplitter } from "../framing.ts";

/** Where replies go; `write` resolves when the bytes were accepted (a `Writer` from cli/provider.ts fits). */
export interface ByteSink {
  write(text: string): Promise<void>;
  close(): void;
}

export interface NdjsonOptions {
  origin: Origin;
  label?: string;
  maxLineBytes?: number;
}

/** Serves until the readable side ends or the server closes the connection. */
export async function serveNdjson(
  server: LarkitAppServer,
  readable: ReadableStream<Uint8Array>,
  output: ByteSink,
  opts: NdjsonOptions,
): Promise<void> {
  const reader = readable.getReader();
  let open = true;
  const connection = server.connect(opts.origin, {
    async send(message) {
      await output.write(message + "\n");
    },
    close() {
      if (!open) return;
      open = false;
      reader.cancel().catch(() => {/* already closed by the peer */});
      output.close();
    },
  }, opts.label);

  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitter = lineSplitter(maxLineBytes);
  const deliver = async (events: ReturnType<typeof splitter.push>) => {
    for (const e of events) {
      if (e.kind === "line") {
        await connection.receive(e.text);
      } else {
        // An oversized line is answered like any unparseable frame; its bytes were never kept.
        await connection.rejectFrame(`line of ${e.bytes} bytes exceeds the ${maxLineBytes}-byte limit`);
      }
    }
  };
  try {
    while (open) {
      const { value, done } = await reader.read();
      if (done) break;
      await deliver(splitter.push(value));
    }
    if (open) {
      await deliver(splitter.end());
      // A client may half-close after its last request and still read the replies.
      await connection.drain();
    }
  } catch {
    // The peer reset the stream: same as an end of input.
  } finally {
    connection.close();
  }
}
