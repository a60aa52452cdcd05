/**
 * Shell completion. The scripts ask the binary itself (`larkit __complete <words>`), so completion sees the
 * same tree as a run: lazily built services, strict-mode pruning, registry overlays. Each candidate comes
 * back as `value<TAB>description`; zsh and fish show the descriptions, bash drops them.
 */
import type { Command, Option } from "commander";
import { isHidden, metaOf, readOnlyInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { OUTPUT_FORMATS } from "../output/formats/render.ts";

// Every word is passed quoted, the empty word under the cursor included: unquoted, zsh dropped it and
// completed the previous word again (`larkit im <TAB>` → `im im`). bash inserts a candidate as typed text,
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

/** Where values of flags that are not fixed lists come from (the config's profiles, a service's methods). */
export interface CompletionSources {
  profiles(): Promise<string[]>;
  /** The built subtree of a service, for `schema service.resource.method` paths. */
  service(name: string): Promise<Command | undefined>;
}

const firstLine = (text: string) => text.split("\n")[0].trim();

function describe(c: Command): string {
  return firstLine(c.summary() || c.description() || "");
}

function optionNamed(cmd: Command, program: Command, word: string): Option | undefined {
  return [...cmd.options, ...program.options].find((o) => o.long === word || o.short === word);
}

/**
 * A flag's value: the values the command's declarations give (shortcut choices, enum parameters from the
 * registry), its commander choices, or the values larkit knows for --format, --as and --profile.
 */
async function valuesOf(cmd: Command, option: Option, sources: CompletionSources): Promise<Candidate[]> {
  const declared = (option.long && metaOf(cmd)?.values?.(option.long.slice(2))) || [];
  if (declared.length) return declared;
  const choices = option.argChoices ??
    (option.long === "--format" ? [...OUTPUT_FORMATS] : option.long === "--as" ? ["user", "bot", "auto"] : [])
      .concat(option.long === "--profile" ? await sources.profiles() : []);
  return choices.map((value) => ({ value, description: firstLine(option.description) }));
}

async function schemaPaths(
  program: Command,
  partial: string,
  sources: CompletionSources,
): Promise<Candidate[]> {
  const [service] = partial.split(".");
  if (!partial.includes(".")) {
    return program.commands.filter((c) => !isHidden(c as Command)).map((c) => ({
      value: c.name(),
      description: describe(c as Command),
    }));
  }
  const tree = await sources.service(service);
  if (!tree) return [];
  const out: Candidate[] = [];
  for (const resource of tree.commands) {
    if (resource.name().startsWith("+")) continue;
    for (const method of resource.commands) {
      out.push({
        value: `${service}.${resource.name()}.${method.name()}`,
        description: describe(method as Command),
      });
    }
  }
  return out;
}

/** Candidates for the last (possibly empty) word, given the words before it. */
export async function completeWords(
  program: Command,
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
      if (option && (option.required || option.optional) && !w.includes("=")) i++;
      continue;
    }
    const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!next) {
      if (cmd.name() === "schema") break;
      return [];
    }
    cmd = next as Command;
  }
  let pool: Candidate[];
  const previous = before.at(-1);
  const valueOf = previous?.startsWith("-") ? optionNamed(cmd, program, previous) : undefined;
  if (valueOf && (valueOf.required || valueOf.optional)) {
    pool = await valuesOf(cmd, valueOf, sources);
  } else if (partial.startsWith("-")) {
    pool = [...cmd.options, ...(cmd === program ? [] : program.options)]
      .filter((o: Option) => !o.hidden && o.long)
      .map((o: Option) => ({ value: o.long as string, description: firstLine(o.description) }))
      .concat([{ value: "--help", description: "display help for command" }]);
  } else if (cmd.name() === "schema" && cmd.parent === program) {
    pool = await schemaPaths(program, partial, sources);
  } else {
    pool = cmd.commands.filter((c) => !isHidden(c as Command)).map((c) => ({
      value: c.name(),
      description: describe(c as Command),
    }));
  }
  const seen = new Set<string>();
  return pool.filter((c) => c.value.startsWith(partial) && !seen.has(c.value) && seen.add(c.value))
    .sort((a, b) => a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
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
        async profiles() {
          const { loadConfig } = await import("../config/config_file.ts");
          return ((await loadConfig(ctx.p).catch(() => undefined))?.profiles ?? []).map((p) => p.name);
        },
        async service(name) {
          const built = await ctx.hooks.tree([name, ""], ctx);
          return built.commands.find((c) => c.name() === name) as Command | undefined;
        },
      };
      const candidates = await completeWords(tree, words.length ? words : [""], sources);
      await emitText(
        ctx,
        candidates.map((c) => `${c.value}\t${c.description.replaceAll("\t", " ")}`).join("\n"),
      );
    });
  setMeta(complete, { layer: "builtin", turn: readOnlyInTurns("lists completion candidates") });
}
