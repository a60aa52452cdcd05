/**
 * The write pump: frames waiting for the relay socket, per stream in order. Streams take turns, a frame each,
 * so one stream's 100 MiB does not hold up another's answer; at most `WRITE_AHEAD_CHARS` are handed to the
 * socket before they are written out, so a 100 MiB message is encoded segment by segment as the network takes
 * it instead of all at once. Without a socket nothing waits here: the outbound buffer keeps every unacked frame,
 * and a new socket starts from its backlog.
 */
import type { WireFrame } from "./segments.ts";
import type { RelaySocket } from "./socket.ts";

/** How much frame text may wait in the socket's own buffers (about 30 segments). */
export const WRITE_AHEAD_CHARS = 4 * 1024 * 1024;

export class FramePump {
  readonly #writeAhead: number;
  #socket: RelaySocket | undefined;
  #queues = new Map<string, WireFrame[]>();
  /** The current socket's write-ahead (a new object per socket, so a late callback of the old one is ignored). */
  #writing: { chars: number } | undefined;

  constructor(writeAhead = WRITE_AHEAD_CHARS) {
    this.#writeAhead = writeAhead;
  }

  /** A new socket: `backlog` (every unacked frame, per stream in order) goes first, new frames queue behind it. */
  attach(socket: RelaySocket, backlog: Map<string, WireFrame[]>): void {
    this.#queues = backlog;
    this.#writing = { chars: 0 };
    this.#socket = socket;
    this.pump();
  }

  /** The socket went away: whatever still waits is dropped here (the outbound buffer still holds it). */
  detach(): void {
    this.#socket = undefined;
    this.#writing = undefined;
    this.#queues = new Map();
  }

  /** Queues one message's frames behind its stream's earlier ones. */
  write(frames: readonly WireFrame[], stream: string): void {
    const socket = this.#socket;
    const writing = this.#writing;
    if (!socket || !writing) return;
    // One frame with no stream in line and room ahead (every small answer of a quiet link): written at once,
    // as the pump below would, without passing through the queues.
    if (frames.length === 1 && this.#queues.size === 0 && writing.chars < this.#writeAhead && socket.isOpen) {
      return this.#send(socket, writing, frames[0]);
    }
    const queue = this.#queues.get(stream);
    if (queue) { for (const f of frames) queue.push(f); }
    else this.#queues.set(stream, [...frames]);
    this.pump();
  }

  /** Frames waiting for the socket (tests). */
  get waiting(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  pump(): void {
    const socket = this.#socket;
    const writing = this.#writing;
    if (!socket?.isOpen || !writing) return;
    while (writing.chars < this.#writeAhead && this.#queues.size > 0) {
      // The stream first in line writes one frame and goes to the back of the line.
      const [stream, queue] = this.#queues.entries().next().value as [string, WireFrame[]];
      this.#queues.delete(stream);
      const frame = queue.shift() as WireFrame;
      if (queue.length > 0) this.#queues.set(stream, queue);
      this.#send(socket, writing, frame);
    }
  }

  #send(socket: RelaySocket, writing: { chars: number }, frame: WireFrame): void {
    const written = (size: number) => () => {
      writing.chars -= size;
      if (this.#writing === writing) this.pump();
    };
    if (frame.bytes && socket.sendBytes) {
      const utf8 = frame.bytes();
      writing.chars += utf8.length;
      socket.sendBytes(utf8, written(utf8.length));
    } else {
      const text = frame.text;
      writing.chars += text.length;
      socket.send(text, written(text.length));
    }
  }
}
