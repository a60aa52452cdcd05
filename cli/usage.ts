/**
 * Where a command line lands in the command tree, for usage errors: the deepest command its words name, and
 * the first word that names nothing there, with did-you-mean suggestions. Hints then point at commands that
 * exist (`--as bot calendar nosuch` -> `larkit calendar --help`, never `larkit bot calendar ...`).
 */
import type { Command } from "commander";
import { suggest, type UsageLanding } from "./resolve/usage.ts";

function child(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/**
 * Whether an option takes a value: as the command at hand declares it, else as the first command in the tree
 * that declares it (`larkit --as bot calendar ...` puts a leaf's option before the words that reach the leaf).
 */
function takesValue(cmd: Command, root: Command, flag: string): boolean {
  const declared = (c: Command) => c.options.find((o) => o.long === flag || o.short === flag);
  const here = declared(cmd);
  if (here) return here.required || here.optional;
  const queue = [root];
  for (let c = queue.shift(); c; c = queue.shift()) {
    const o = declared(c);
    if (o) return o.required || o.optional;
    queue.push(...c.commands);
  }
  return false;
}

/**
 * Walks the words of `argv` down from `root`, passing over option values (`--as bot` is not the `bot`
 * command). The walk stops at `--`, at a command that takes arguments of its own, and at the first word that
 * names nothing.
 */
export function land(root: Command, argv: string[]): UsageLanding {
  let cmd = root;
  const path: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") break;
    if (word.startsWith("-")) {
      if (!word.includes("=") && takesValue(cmd, root, word)) i++;
      continue;
    }
    const next = child(cmd, word);
    if (next) {
      cmd = next;
      path.push(next.name());
      continue;
    }
    if (cmd.commands.length === 0 || cmd.registeredArguments.length > 0) break;
    const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    return { path, unknown: word, suggestions: suggest(word, names) };
  }
  return { path, suggestions: [] };
}

/** `--help`/`-h` among the options (before `--`). */
export function asksHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}
