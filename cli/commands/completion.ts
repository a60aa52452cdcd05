/**
 * Shell completion. The scripts ask the binary itself (`larkit __complete <words>`), so completion sees the
 * same tree as a run: lazily built services, strict-mode pruning, registry overlays. Each candidate comes
 * back as `value<TAB>description`; zsh and fish show the descriptions, bash drops them. Within a service the
 * lean path (`cli/fast/complete.ts`) answers through the same walk (`completeWords`) without commander.
 */
import type { Command, Option } from "commander";
import { isHidden, metaOf, readOnlyInTurns, setMeta } from "../command_meta.ts";
import { lazy } from "../lazy.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { OUTPUT_FORMATS } from "../output/formats/names.ts";

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

export interface Candidate {
  value: string;
  description: string;
}

/** An option as completion sees it. */
export interface CompletionOption {
  long?: string;
  short?: string;
  takesValue: boolean;
  hidden: boolean;
  description: string;
  /** commander's declared choices. */
  choices?: readonly string[];
}

/**
 * A command as completion sees it: a view of the commander tree (`viewOf`), or of the lean description of a
 * service (`cli/fast/complete.ts`), so both answer through the one walk below.
 */
export interface CompletionCommand {
  name: string;
  aliases: string[];
  hidden: boolean;
  /** Its summary, else its description. */
  about: string;
  options: CompletionOption[];
  commands: CompletionCommand[];
  parent?: CompletionCommand;
  /** The values its declarations give for a flag (shortcut choices, enum parameters from the registry). */
  values(flag: string): Candidate[];
}

/** Where values of flags that are not fixed lists come from (the config's profiles, a service's methods). */
export interface CompletionSources {
  profiles(): Promise<string[]>;
  /** The built subtree of a service, for `schema service.resource.method` paths. */
  service(name: string): Promise<CompletionCommand | undefined>;
}

const firstLine = (text: string) => text.split("\n")[0].trim();

/** The commander command as completion sees it, subcommands included. */
export function viewOf(cmd: Command, parent?: CompletionCommand): CompletionCommand {
  const view: CompletionCommand = {
    name: cmd.name(),
    aliases: cmd.aliases(),
    hidden: isHidden(cmd),
    about: cmd.summary() || cmd.description() || "",
    options: cmd.options.map((o: Option) => ({
      long: o.long,
      short: o.short,
      takesValue: o.required || o.optional,
      hidden: o.hidden,
      description: o.description,
      choices: o.argChoices,
    })),
    commands: [],
    parent,
    values: (flag) => metaOf(cmd)?.values?.(flag) ?? [],
  };
  view.commands = cmd.commands.map((c) => viewOf(c as Command, view));
  return view;
}

/** The names of the config's profiles, for `--profile`; none when there is no config to read. */
export async function configProfiles(ctx: RunContext): Promise<string[]> {
  // Through `later`: a literal specifier would put the config's module graph (zod, 745 KB to read and hash)
  // into every Tab's, which reads it only to complete `--profile` (issue 17).
  const { loadConfig } = await lazy("cli/config/config_file.ts");
  return ((await loadConfig(ctx.p).catch(() => undefined))?.profiles ?? []).map((p) => p.name);
}

function optionNamed(
  cmd: CompletionCommand,
  program: CompletionCommand,
  word: string,
): CompletionOption | undefined {
  return [...cmd.options, ...program.options].find((o) => o.long === word || o.short === word);
}

/**
 * A flag's value: the values the command's declarations give (shortcut choices, enum parameters from the
 * registry), its commander choices, or the values larkit knows for --format, --as and --profile.
 */
async function valuesOf(
  cmd: CompletionCommand,
  option: CompletionOption,
  sources: CompletionSources,
): Promise<Candidate[]> {
  const declared = (option.long && cmd.values(option.long.slice(2))) || [];
  if (declared.length) return declared;
  const choices = option.choices ??
    (option.long === "--format" ? [...OUTPUT_FORMATS] : option.long === "--as" ? ["user", "bot", "auto"] : [])
      .concat(option.long === "--profile" ? await sources.profiles() : []);
  return choices.map((value) => ({ value, description: firstLine(option.description) }));
}

async function schemaPaths(
  program: CompletionCommand,
  partial: string,
  sources: CompletionSources,
): Promise<Candidate[]> {
  const [service] = partial.split(".");
  if (!partial.includes(".")) {
    return program.commands.filter((c) => !c.hidden).map((c) => ({
      value: c.name,
      description: firstLine(c.about),
    }));
  }
  const tree = await sources.service(service);
  if (!tree) return [];
  const out: Candidate[] = [];
  for (const resource of tree.commands) {
    if (resource.name.startsWith("+")) continue;
    for (const method of resource.commands) {
      out.push({ value: `${service}.${resource.name}.${method.name}`, description: firstLine(method.about) });
    }
  }
  return out;
}

/** Candidates for the last (possibly empty) word, given the words before it. */
export async function completeWords(
  program: CompletionCommand,
  words: string[],
  sources: CompletionSources,
): Promise<Candidate[]> {
  const partial = words.at(-1) ?? "";
  let cmd = program;
  const before = words.slice(0, -1);
  for (let i = 0; i < before.length; i++) {
    const w = before[i];
    if (w.startsWith("-")) {
      const option = optionNamed(cmd, program, w);
      // A flag's value is not a command word.
      if (option?.takesValue && !w.includes("=")) i++;
      continue;
    }
    const next = cmd.commands.find((c) => c.name === w || c.aliases.includes(w));
    if (!next) {
      if (cmd.name === "schema") break;
      return [];
    }
    cmd = next;
  }
  let pool: Candidate[];
  const previous = before.at(-1);
  const valueOf = previous?.startsWith("-") ? optionNamed(cmd, program, previous) : undefined;
  if (valueOf?.takesValue) {
    pool = await valuesOf(cmd, valueOf, sources);
  } else if (partial.startsWith("-")) {
    pool = [...cmd.options, ...(cmd === program ? [] : program.options)]
      .filter((o) => !o.hidden && o.long)
      .map((o) => ({ value: o.long as string, description: firstLine(o.description) }))
      .concat([{ value: "--help", description: "display help for command" }]);
  } else if (cmd.name === "schema" && cmd.parent === program) {
    pool = await schemaPaths(program, partial, sources);
  } else {
    pool = cmd.commands.filter((c) => !c.hidden).map((c) => ({
      value: c.name,
      description: firstLine(c.about),
    }));
  }
  const seen = new Set<string>();
  return pool.filter((c) => c.value.startsWith(partial) && !seen.has(c.value) && seen.add(c.value))
    .sort((a, b) => a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** The lines `__complete` prints: `value<TAB>description`, one per candidate. */
export async function emitCandidates(ctx: RunContext, candidates: Candidate[]): Promise<void> {
  await emitText(ctx, candidates.map((c) => `${c.value}\t${c.description.replaceAll("\t", " ")}`).join("\n"));
}

export function registerCompletion(program: Command, ctx: RunContext): void {
  const completion = program.command("completion")
    .description("print a shell completion script: larkit completion bash|zsh|fish")
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText("after", INSTALL)
    .action(async (shell: string) => {
      const script = SCRIPTS[shell];
      if (!script) {
        throw errors.validation(`unknown shell "${shell}"`, { hint: "use one of: bash, zsh, fish" });
      }
      await emitText(ctx, script);
    });
  setMeta(completion, { layer: "builtin", turn: readOnlyInTurns("prints a fixed script") });

  const complete = program.command("__complete", { hidden: true })
    .argument("[words...]")
    .allowUnknownOption()
    .helpOption(false)
    .action(async () => {
      // commander reorders unknown options after operands; completion needs the words exactly as typed.
      const words = ctx.argv.slice(ctx.argv.indexOf("__complete") + 1);
      const tree = await ctx.hooks.tree(words, ctx);
      const sources: CompletionSources = {
        profiles: () => configProfiles(ctx),
        async service(name) {
          const built = (await ctx.hooks.tree([name, ""], ctx)).commands.find((c) => c.name() === name);
          return built && viewOf(built as Command);
        },
      };
      await emitCandidates(ctx, await completeWords(viewOf(tree), words.length ? words : [""], sources));
    });
  setMeta(complete, { layer: "builtin", turn: readOnlyInTurns("lists completion candidates") });
}
