/**
 * Making arbitrary values safe and measurable as terminal cells: suite data can hold escape sequences,
 * control characters and bidi overrides (a message body, an event title), which must not reach a terminal
 * through a table. Width is counted in display columns, so CJK text and emoji (two columns each) align.
 */
import { lazy } from "../../lazy.ts";

// string-width loads with the first table or summary, not with every run.
let stringWidth: ((text: string) => number) | undefined;

/** Loads the width measure; every writer of tables and pretty summaries awaits this before rendering. */
export async function loadCellWidths(): Promise<void> {
  stringWidth ??= (await lazy("cli/output/formats/width.ts")).stringWidth;
}

function measure(text: string): number {
  if (!stringWidth) throw new Error("cell widths used before loadCellWidths()");
  return stringWidth(text);
}

// Tabs and line breaks, which would break a table's row: a cell is one line.
const BREAKS = /[\t\n\r]+/g;

// C0/C1 controls (ESC starts every terminal escape sequence) and bidi overrides/isolates (which can reorder a
// line), less the line breaks and tab that lay out csv fields and summaries.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE_KEEPING_LINES = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Suite text made harmless but still readable (csv, pretty summaries, and each table cell): each
 * control character or bidi override becomes its `\uXXXX` escape, so an ESC, an OSC title or a U+202E can
 * neither drive the terminal nor reorder the line, and nothing is silently lost. Line breaks and tabs stay
 * (`\r` too with `keepReturn`: csv quotes a field's CRLF).
 */
export function escapeControls(text: string, keepReturn = false): string {
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  const out = text.replace(UNSAFE_KEEPING_LINES, escape);
  return keepReturn ? out : out.replaceAll("\r", escape);
}

/**
 * One line of visible text for a table cell: line breaks and tabs become a space, every other control
 * character or bidi override its `\uXXXX` escape, as in csv and pretty (an escape sequence is shown, not run,
 * and nothing of it is lost). Widths are measured on this escaped text.
 */
export function sanitizeCell(text: string): string {
  return escapeControls(text.replace(BREAKS, " "));
}

// Graphemes, not code points: a flag, a skin-toned or ZWJ emoji, an accented letter is one cell unit, never
// cut in half by truncation. Made on first use: constructing it loads ICU's segmentation data, a cost every
// run paid at import (start-up, issue 17) although only tables truncate.
let graphemes: Intl.Segmenter | undefined;

/** Display columns of a text (string-width: East Asian Wide/Fullwidth and emoji are two). */
export function displayWidth(text: string): number {
  return measure(text);
}

/** Cuts text to at most `max` display columns, ending in `...` when something was cut. */
export function truncateCell(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = "";
  let width = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const { segment } of graphemes.segment(text)) {
    const w = measure(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return out + "…";
}

export function padCell(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
