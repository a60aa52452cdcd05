/**
 * Newline-delimited JSON framing for byte streams (stdio, unix socket). Works on bytes so a multi-byte
 * character split across reads stays intact and the line limit is a real byte count. A line longer than the
 * limit is discarded as it streams (never buffered whole) and reported once, so a peer cannot make the server
 * hold an unbounded line.
 */
import { concatBytes } from "../cli/files.ts";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type FrameEvent =
  | { kind: "line"; text: string }
  | { kind: "oversized"; bytes: number };

export interface LineSplitter {
  push(chunk: Uint8Array): FrameEvent[];
  /** End of stream: a final line without a newline still counts. */
  end(): FrameEvent[];
  /** Bytes held for the current incomplete line (never more than the limit). */
  readonly buffered: number;
}

const NEWLINE = 0x0a;

export function lineSplitter(maxLineBytes = DEFAULT_MAX_LINE_BYTES): LineSplitter {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let held = 0;
  /** Bytes of the current line dropped because it passed the limit; 0 while the line is within it. */
  let dropped = 0;

  const finishLine = (events: FrameEvent[]) => {
    if (dropped > 0) {
      events.push({ kind: "oversized", bytes: dropped + held });
    } else if (held > 0) {
      const text = decoder.decode(concatBytes(parts)).replace(/\r$/, "");
      if (text.trim().length > 0) events.push({ kind: "line", text });
    }
    parts = [];
    held = 0;
    dropped = 0;
  };

  const hold = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    if (dropped > 0 || held + bytes.length > maxLineBytes) {
      dropped += held + bytes.length;
      parts = [];
      held = 0;
      return;
    }
    parts.push(bytes);
    held += bytes.length;
  };

  return {
    push(chunk) {
      const events: FrameEvent[] = [];
      let from = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
        hold(chunk.subarray(from, at));
        finishLine(events);
        from = at + 1;
      }
      // Copy: the caller may reuse its read buffer.
      hold(chunk.slice(from));
      return events;
    },
    end() {
      const events: FrameEvent[] = [];
      finishLine(events);
      return events;
    },
    get buffered() {
      return held;
    },
  };
}
