/**
 * Line diffs of two texts as unified-diff hunks (`+diff`) and exact find/replace (`+patch`). Kept here rather
 * than as a dependency: markdown files are small, and a longest-common-subsequence table over the lines that
 * differ (after the common head and tail are cut) is enough; past `MAX_CELLS` the diff is refused, not guessed.
 */
import { errors } from "../../cli/output/errors.ts";

const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function operations(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const w = y.length + 1;
  if ((x.length + 1) * w > MAX_CELLS) {
    throw errors.validation(
      `the texts differ in too many lines to diff (${x.length} × ${y.length})`,
      { hint: "fetch the file with +fetch and compare it locally" },
    );
  }
  // lcs[i*w + j]: length of the longest common subsequence of x[i..] and y[j..].
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j]
        ? lcs[(i + 1) * w + j + 1] + 1
        : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: " ", line }));
  let i = 0, j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push({ kind: " ", line: x[i++] });
      j++;
    } else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
      // Removals before additions, as `diff -u` shows a changed line.
      ops.push({ kind: "-", line: x[i++] });
    } else ops.push({ kind: "+", line: y[j++] });
  }
  for (const line of a.slice(a.length - tail)) ops.push({ kind: " ", line });
  return ops;
}

export interface TextDiff {
  /** The unified diff (`---`/`+++` headers and `@@` hunks); empty when the texts are equal. */
  patch: string;
  added: number;
  removed: number;
}

/** `from` -> `to` as a unified diff with `context` unchanged lines around each change. */
export function unifiedDiff(from: string, to: string, names: [string, string], context: number): TextDiff {
  const ops = operations(splitLines(from), splitLines(to));
  const changed = ops.flatMap((op, k) => op.kind === " " ? [] : [k]);
  if (changed.length === 0) return { patch: "", added: 0, removed: 0 };
  // Group changes whose context windows touch into one hunk.
  const groups: [number, number][] = [];
  for (const k of changed) {
    const last = groups[groups.length - 1];
    if (last && k - last[1] <= 2 * context + 1) last[1] = k;
    else groups.push([k, k]);
  }
  // Line numbers (1-based) in each text before op k.
  const aAt = [1], bAt = [1];
  for (const op of ops) {
    aAt.push(aAt[aAt.length - 1] + (op.kind === "+" ? 0 : 1));
    bAt.push(bAt[bAt.length - 1] + (op.kind === "-" ? 0 : 1));
  }
  const out = [`--- ${names[0]}`, `+++ ${names[1]}`];
  for (const [first, last] of groups) {
    const s = Math.max(0, first - context), e = Math.min(ops.length, last + context + 1);
    const body = ops.slice(s, e);
    const aLen = body.filter((op) => op.kind !== "+").length;
    const bLen = body.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${aLen ? aAt[s] : aAt[s] - 1},${aLen} +${bLen ? bAt[s] : bAt[s] - 1},${bLen} @@`);
    for (const op of body) out.push(op.kind + op.line);
  }
  return {
    patch: out.join("\n") + "\n",
    added: ops.filter((op) => op.kind === "+").length,
    removed: ops.filter((op) => op.kind === "-").length,
  };
}

/** `--pattern` as a global RegExp: literal text escaped, or the user's regex checked (before anything is sent). */
export function compilePattern(find: string, regex: boolean): RegExp {
  try {
    return new RegExp(regex ? find : find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g");
  } catch (e) {
    throw errors.validation(`--pattern is not a valid regular expression: ${(e as Error).message}`);
  }
}

/**
 * Every occurrence of `pattern` replaced by `replace` (with a regex, `$1` ... are its groups; literal otherwise).
 * Zero matches is an error: a patch that changes nothing is a mistake the caller should hear about.
 */
export function replaceAll(
  text: string,
  pattern: RegExp,
  replace: string,
  regex: boolean,
): { text: string; replacements: number } {
  const replacements = [...text.matchAll(pattern)].length;
  if (replacements === 0) {
    throw errors.validation("--pattern matches nothing in the file; nothing was changed", {
      hint: "run markdown +fetch to see the current text",
    });
  }
  const out = regex ? text.replace(pattern, replace) : text.replace(pattern, () => replace);
  return { text: out, replacements };
}
