/**
 * A line typed at a terminal without echo (the app secret). The terminal is put in cbreak mode (no echo, no
 * line editing, Ctrl-C still a signal) for the read only, so the few editing keys a person uses on a secret
 * are handled here: Backspace, Ctrl-U (erase all), Ctrl-D on an empty line (end of input).
 */
export type ReadSecret = (max?: number) => Promise<string | null>;

export function secretReader(
  next: () => Promise<ReadableStreamReadResult<string>>,
  setRaw: (raw: boolean) => void,
): ReadSecret {
  return async (max = Infinity) => {
    setRaw(true);
    // Code points, so Backspace removes a whole character (CJK, emoji), not half a surrogate pair.
    let typed: string[] = [];
    try {
      for (;;) {
        const { value, done } = await next();
        if (done) return typed.length ? typed.join("") : null;
        for (const ch of value) {
          if (ch === "\r" || ch === "\n") return typed.join("");
          if (ch === "\x7f" || ch === "\b") typed.pop();
          else if (ch === "\x15") typed = [];
          else if (ch === "\x04") {
            if (!typed.length) return null;
          } // Bounded like readLine: one character past `max` tells the caller the line was too long.
          else if (ch >= " " && typed.length <= max) typed.push(ch);
        }
      }
    } finally {
      setRaw(false);
    }
  };
}
