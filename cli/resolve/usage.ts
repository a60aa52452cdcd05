/**
 * Usage errors as the resolver reports them: one wording, one hint naming the deepest command that exists,
 * did-you-mean for commands and flags.
 */
import { errors, type LarkitError } from "../output/errors.ts";

/** Where the command line landed: the deepest command its words name, and the word that named nothing. */
export interface UsageLanding {
  /** Names from the root to the deepest command the words reach (empty = the root). */
  path: string[];
  /** The word that names no subcommand where one was expected. */
  unknown?: string;
  /** Subcommand names close to `unknown`, nearest first. */
  suggestions: string[];
}

/** A usage error whose hint names the deepest command that exists, with did-you-mean suggestions. */
export function usageError(message: string, reason: string, at: UsageLanding): LarkitError {
  const detail: Record<string, unknown> = { reason };
  if (at.unknown !== undefined) Object.assign(detail, { word: at.unknown, suggestions: at.suggestions });
  const maybe = at.suggestions.length ? `did you mean ${at.suggestions.join(", ")}? ` : "";
  return errors.usage(message, {
    detail,
    hint: `${maybe}run \`larkit ${[...at.path, "--help"].join(" ")}\` to see the commands and flags`,
  });
}

const MAX_DISTANCE = 3;

/** Edit distance (optimal string alignment), capped: how far a misspelt flag may be from a real one. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The text after `unknown option '--x'`: the long flags shown for the command that are close to it (the
 * wording commander used, which scripts may have matched).
 */
export function optionSuggestion(flag: string, longFlags: string[]): string {
  const word = flag.slice(2);
  let similar: string[] = [];
  let best = MAX_DISTANCE;
  for (const candidate of new Set(longFlags.map((f) => f.slice(2)))) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) similar.push(candidate);
  }
  similar = similar.sort((a, b) => a.localeCompare(b)).map((c) => `--${c}`);
  if (similar.length > 1) return ` (Did you mean one of ${similar.join(", ")}?)`;
  return similar.length === 1 ? ` (Did you mean ${similar[0]}?)` : "";
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** Command names close to an unknown word: within a third of the word's length in edits (at least 1), or sharing its prefix; at most 3. */
export function suggest(word: string, names: string[]): string[] {
  const scored = names
    .map((name) => ({ name, d: distance(word, name) }))
    .filter(({ name, d }) =>
      d <= Math.max(1, Math.floor(word.length / 3)) || (word.length >= 3 && name.startsWith(word))
    )
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
  return scored.slice(0, 3).map((s) => s.name);
}

/** `unknown command 'x'`, with did-you-mean among the names the command at `path` has. */
export function unknownCommandError(word: string, names: string[], path: string[]): LarkitError {
  const suggestions = suggest(word, names);
  const maybe = suggestions.length === 0
    ? ""
    : suggestions.length === 1
    ? ` (Did you mean ${suggestions[0]}?)`
    : ` (Did you mean one of ${suggestions.join(", ")}?)`;
  return usageError(`unknown command '${word}'${maybe}`, "unknownCommand", {
    path,
    unknown: word,
    suggestions,
  });
}
