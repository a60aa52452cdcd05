/**
 * Making arbitrary values safe and measurable as terminal cells: suite data can hold escape sequences,
 * control characters and bidi overrides (a message body, an event title), which must not reach a terminal
 * through a table. Width is counted in display columns, so CJK text and emoji (two columns each) align.
 */

// ANSI CSI/OSC sequences, then C0/C1 controls and bidi overrides/isolates (which can reorder a line).
// deno-lint-ignore no-control-regex -- matching escape sequences is the point
const ANSI = /\x1b\[[0-9;?]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g;
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const BREAKS = /[\t\n\r]+/g;

/** One line of visible text: escape sequences and controls removed, line breaks and tabs become a space. */
export function sanitizeCell(text: string): string {
  return text.replace(ANSI, "").replace(BREAKS, " ").replace(UNSAFE, "");
}

const ZERO_WIDTH: [number, number][] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0xfe00, 0xfe0f],
  [0x20d0, 0x20ff],
];

// East Asian Wide/Fullwidth blocks and the emoji planes: two display columns each.
const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function inRanges(code: number, ranges: [number, number][]): boolean {
  return ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (inRanges(code, ZERO_WIDTH)) return 0;
  return inRanges(code, WIDE) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Cuts text to at most `max` display columns, ending in `…` when something was cut. */
export function truncateCell(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = "";
  let width = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (width + w > max - 1) break;
    out += char;
    width += w;
  }
  return out + "…";
}

export function padCell(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
