/**
 * Shell completion. The scripts ask the binary itself (`larkit __complete <words>`), so completion sees the
 * same tree as a run: lazily built services, strict-mode pruning, registry overlays.
 */
import type { Command, Option } from "commander";
import { isHidden, readOnlyInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";

const SCRIPTS: Record<string, string> = {
  bash: `_larkit() {
  local IFS=$'\\n'
  COMPREPLY=($(larkit __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _larkit larkit`,
  zsh: `#compdef larkit
_larkit() {
  local -a candidates
  candidates=("\${(@f)$(larkit __complete \${words[2,CURRENT]} 2>/dev/null)}")
  compadd -a candidates
}
compdef _larkit larkit`,
  fish: `complete -c larkit -f -a '(larkit __complete (commandline -opc)[2..-1] (commandline -ct))'`,
};

/** Candidates for the last (possibly empty) word, given the words before it. Pure over a built tree. */
export function completeWords(program: Command, words: string[]): string[] {
  const partial = words.at(-1) ?? "";
  let cmd = program;
  for (const w of words.slice(0, -1)) {
    if (w.startsWith("-")) continue;
    const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!next) return [];
    cmd = next as Command;
  }
  const subcommands = cmd.commands.filter((c) => !isHidden(c as Command)).map((c) => c.name());
  const options = [...cmd.options, ...(cmd === program ? [] : program.options)]
    .filter((o: Option) => !o.hidden && o.long)
    .map((o: Option) => o.long as string);
  const pool = partial.startsWith("-") ? [...options, "--help"] : subcommands;
  return [...new Set(pool)].filter((c) => c.startsWith(partial)).sort();
}

export function registerCompletion(program: Command, ctx: RunContext): void {
  const completion = program.command("completion")
    .description("print a shell completion script: larkit completion bash|zsh|fish")
    .argument("<shell>", "bash, zsh or fish")
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
      await emitText(ctx, completeWords(tree, words.length ? words : [""]).join("\n"));
    });
  setMeta(complete, { layer: "builtin", turn: readOnlyInTurns("lists completion candidates") });
}
