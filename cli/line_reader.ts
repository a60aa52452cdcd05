/**
 * Lines from a text stream, bounded: a line longer than `max` characters is kept only up to `max + 1`
 * characters (the rest is read and dropped), so a peer that never sends a newline cannot make larkit buffer
 * without bound, and the caller still sees that the line was too long. Each chunk is scanned once.
 */
export type ReadLine = (max?: number) => Promise<string | null>;

export function lineReader(next: () => Promise<ReadableStreamReadResult<string>>): ReadLine {
  let carry = "";
  let ended = false;
  return async (max = Infinity) => {
    const parts: string[] = [];
    let kept = 0;
    const keep = (text: string) => {
      if (kept > max) return;
      const piece = text.slice(0, max + 1 - kept);
      parts.push(piece);
      kept += piece.length;
    };
    for (;;) {
      const at = carry.indexOf("\n");
      if (at !== -1) {
        keep(carry.slice(0, at));
        carry = carry.slice(at + 1);
        return parts.join("");
      }
      keep(carry);
      carry = "";
      if (ended) return parts.length && kept > 0 ? parts.join("") : null;
      const { value, done } = await next();
      if (done) ended = true;
      else carry = value;
    }
  };
}
