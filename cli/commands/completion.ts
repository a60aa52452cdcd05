/**
 * Shell completion. The scripts ask the binary itself (`larkit __complete <words>`), so completion sees the
 * same command nodes as a run: lazily found services, strict-mode pruning, registry overlays. Each candidate
 * comes back as `value<TAB>description`; zsh and fish show the descriptions, bash drops them.
 */
import { type FlagValue, readOnlyInTurns } from "../command_meta.ts";
import { lazy } from "../lazy.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { OUTPUT_FORMATS } from "../output/formats/names.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { type CommandNode, expanded, flagsOf, nodePath, type OptionDecl } from "../resolve/node.ts";
import { childOf } from "../resolve/parse.ts";
import { rootNode } from "../resolve/root.ts";
import { serviceNode } from "../resolve/services.ts";
import { forbids, prune, type StrictMode, strictModeOf } from "../resolve/strict.ts";

// Every word is passed quoted, the empty word under the cursor included: unquoted, zsh dropped it and
// completed the previous word again (`larkit im <TAB>` -> `im im`). bash inserts a candidate as typed text,
// so each one is shell-quoted (`%q`) there: a `--params` candidate is JSON, whose quotes bash would strip.
// zsh's `_describe` and fish quote what they insert themselves.
const SCRIPTS: Record<string, string> = {
  bash: `_larkit() {
  local line quoted
  COMPREPLY=()
  while IFS= read -r line; do
    printf -v quoted '%q' "$line"
    COMPREPLY+=("$quoted")
  done < <(larkit __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1)
}
complete -o default -F _larkit larkit`,
  zsh: `#compdef larkit
_larkit() {
  local -a lines values descriptions
  lines=("\${(@f)$(larkit __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  local line
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    values+=("\${line%%$'\\t'*}")
    descriptions+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  (( \${#values} )) && _describe -t larkit larkit descriptions values
}
compdef _larkit larkit`,
  fish: `complete -c larkit -f -a '(larkit __complete (commandline -opc)[2..-1] (commandline -ct))'`,
};

const INSTALL = `
Install (then open a new shell):
  bash:  larkit completion bash > ~/.local/share/bash-completion/completions/larkit
  zsh:   larkit completion zsh > "\${fpath[1]}/_larkit"     (or: source <(larkit completion zsh))
  fish:  larkit completion fish > ~/.config/fish/completions/larkit.fish

Completes services, resources, methods, shortcuts, flags and flag values (--format, --as, --profile,
choices, schema paths), with descriptions in zsh and fish.`;

export type Candidate = FlagValue;

/** Where values of flags that are not fixed lists come from (the config's profiles, a service's methods). */
export interface CompletionSources {
  profiles(): Promise<string[]>;
  /** The listed subtree of a service, for `schema service.resource.method` paths. */
  service(name: string): Promise<CommandNode | undefined>;
}

const firstLine = (text: string) => text.split("\n")[0].trim();
const about = (c: CommandNode) => firstLine(c.summary || c.description);

/** The names of the config's profiles, for `--profile`; none when there is no config to read. */
export async function configProfiles(ctx: RunContext): Promise<string[]> {
  const { loadConfig } = await lazy("cli/config/config_file.ts");
  return ((await loadConfig(ctx.p).catch(() => undefined))?.profiles ?? []).map((p) => p.name);
}

function optionNamed(cmd: CommandNode, root: CommandNode, word: string): OptionDecl | undefined {
  return [...cmd.options, ...root.options].find((o) => {
    const f = flagsOf(o);
    return f.long === word || f.short === word;
  });
}

/**
 * A flag's value: the values the command's declarations give (shortcut choices, enum parameters from the
 * registry), its declared choices, or the values larkit knows for --format, --as and --profile.
 */
async function valuesOf(
  cmd: CommandNode,
  option: OptionDecl,
  sources: CompletionSources,
): Promise<Candidate[]> {
  const long = flagsOf(option).long;
  const declared = (long && await cmd.values?.(long.slice(2))) || [];
  if (declared.length) return declared;
  const choices = option.choices ??
    (long === "--format" ? [...OUTPUT_FORMATS] : long === "--as" ? ["user", "bot", "auto"] : [])
      .concat(long === "--profile" ? await sources.profiles() : []);
  return choices.map((value) => ({ value, description: firstLine(option.description) }));
}

async function schemaPaths(
  root: CommandNode,
  partial: string,
  sources: CompletionSources,
): Promise<Candidate[]> {
  const [service] = partial.split(".");
  if (!partial.includes(".")) {
    return (await expanded(root, 1)).commands.filter((c) => !c.hidden).map((c) => ({
      value: c.name,
      description: about(c),
    }));
  }
  const tree = await sources.service(service);
  if (!tree) return [];
  const out: Candidate[] = [];
  for (const resource of tree.commands) {
    if (resource.leaf) continue;
    for (const method of resource.commands) {
      out.push({ value: `${service}.${resource.name}.${method.name}`, description: about(method) });
    }
  }
  return out;
}

/** Candidates for the last (possibly empty) word, given the words before it, pruned for strict mode. */
export async function completeWords(
  root: CommandNode,
  words: string[],
  sources: CompletionSources,
  mode: StrictMode,
): Promise<Candidate[]> {
  const partial = words.at(-1) ?? "";
  let cmd = root;
  const before = words.slice(0, -1);
  for (let i = 0; i < before.length; i++) {
    const w = before[i];
    if (w.startsWith("-")) {
      const option = optionNamed(cmd, root, w);
      // A flag's value is not a command word.
      if (option && flagsOf(option).takesValue && !w.includes("=")) i++;
      continue;
    }
    // A leaf's words are its arguments, not commands.
    if (cmd.leaf) continue;
    const next = await childOf(cmd, w).catch(() => undefined);
    if (!next || forbids(mode, next.identities)) return [];
    cmd = next;
  }
  let pool: Candidate[];
  const previous = before.at(-1);
  const valueOf = previous?.startsWith("-") ? optionNamed(cmd, root, previous) : undefined;
  if (valueOf && flagsOf(valueOf).takesValue) {
    pool = await valuesOf(cmd, valueOf, sources);
  } else if (partial.startsWith("-")) {
    pool = [...cmd.options, ...(cmd === root ? [] : root.options)]
      .filter((o) => !o.hidden && flagsOf(o).long)
      .map((o) => ({ value: flagsOf(o).long as string, description: firstLine(o.description) }))
      .concat([{ value: "--help", description: "display help for command" }]);
  } else if (cmd.leaf && nodePath(cmd).join(" ") === "schema") {
    pool = await schemaPaths(root, partial, sources);
  } else {
    // A word found by name but naming nothing when listed (`calendar nosuch`) has nothing to offer.
    if (!await expanded(cmd, cmd === root ? 1 : 2).catch(() => undefined)) return [];
    prune(cmd, mode);
    pool = cmd.commands.filter((c) => !c.hidden).map((c) => ({ value: c.name, description: about(c) }));
  }
  const seen = new Set<string>();
  return pool.filter((c) => c.value.startsWith(partial) && !seen.has(c.value) && seen.add(c.value))
    .sort((a, b) => a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Prints the candidates for `__complete <words>` (the words exactly as typed). */
export async function runComplete(words: string[], ctx: RunContext): Promise<void> {
  const mode = await strictModeOf(ctx);
  const sources: CompletionSources = {
    profiles: () => configProfiles(ctx),
    async service(name) {
      const node = await serviceNode(ctx, name, rootNode(ctx));
      return node && await expanded(node, 2);
    },
  };
  await emitCandidates(ctx, await completeWords(rootNode(ctx), words.length ? words : [""], sources, mode));
}

/** The lines `__complete` prints: `value<TAB>description`, one per candidate. */
export async function emitCandidates(ctx: RunContext, candidates: Candidate[]): Promise<void> {
  await emitText(ctx, candidates.map((c) => `${c.value}\t${c.description.replaceAll("\t", " ")}`).join("\n"));
}

const completion = defineCommand({
  words: ["completion"],
  description: "print a shell completion script: larkit completion bash|zsh|fish",
  flags: {},
  args: [{ name: "shell", description: "bash, zsh or fish", required: true }],
  helpAfter: INSTALL,
  turn: readOnlyInTurns("prints a fixed script"),
  async action(ctx, { args: [shell] }) {
    const script = Object.hasOwn(SCRIPTS, shell) ? SCRIPTS[shell] : undefined;
    if (!script) throw errors.validation(`unknown shell "${shell}"`, { hint: "use one of: bash, zsh, fish" });
    await emitText(ctx, script);
  },
});

/**
 * `__complete <words...>`: the scripts' question. `cli/run.ts` answers it before the resolver reads argv (the
 * words must be taken exactly as typed, global flags included); declared so it is a known, hidden command.
 */
const complete = defineCommand({
  words: ["__complete"],
  description: "completion candidates for the words typed so far",
  flags: {},
  args: [{ name: "words", description: "", variadic: true }],
  hidden: true,
  passUnknownOptions: true,
  turn: readOnlyInTurns("lists completion candidates"),
  action: (ctx, { args }) => runComplete(args, ctx),
});

export const completionCommands: CommandModule = { groups: [], commands: [completion, complete] };
