/**
 * One connection over a byte stream pair with newline-delimited JSON (stdio, unix socket). Reads are pulled
 * only as fast as the connection takes frames; replies sent in one burst go out in one write (`coalesce.ts`), and
 * a burst past its bound waits for the write, so both directions stay bounded.
 */
import type { Origin } from "../connection.ts";
import type { LarkitAppServer } from "../server.ts";
import { DEFAULT_MAX_LINE_BYTES, lineSplitter } from "../framing.ts";
import { coalescingSink } from "./coalesce.ts";

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
  // A failed write means the peer is gone: the connection ends as if it had closed.
  const sink = coalescingSink((text) => output.write(text), () => connection.close());
  /** The peer ended its input and every reply owed to it was handed to the sink. */
  let ended = false;
  let closed: Promise<void> | undefined;
  const connection = server.connect(opts.origin, {
    send: (message) => sink.send(message + "\n"),
    close() {
      if (!open) return;
      open = false;
      reader.cancel().catch(() => {/* already closed by the peer */});
      // After the peer's end, the replies still being written go out before the stream closes. A close the
      // server forces (a slow consumer, shutdown) closes at once, as before: a peer that does not read must not
      // hold the connection open.
      closed = ended ? sink.flushed().then(() => output.close()) : Promise.resolve(output.close());
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
      ended = true;
    }
  } catch {
    // The peer reset the stream: same as an end of input.
  } finally {
    connection.close();
    await closed;
  }
}
