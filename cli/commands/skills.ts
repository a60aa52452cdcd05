/**
 * `larkit skills list` and `larkit skills show <domain>`: the agent workflow guides embedded in the binary,
 * so an agent can learn a domain's order of steps, preferred commands and confirmations from larkit itself.
 */
import type { Command } from "commander";
import { allSkills } from "../../skills/catalog.ts";
import { readOnlyInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { emitEnvelope, envelopeOutput } from "./envelope_output.ts";

export function registerSkills(program: Command, ctx: RunContext): void {
  const skills = program.command("skills").description("workflow guides for agents, one per domain");
  setMeta(skills, { layer: "builtin" });

  const list = envelopeOutput(skills.command("list"), ["json", "table", "csv", "ndjson"])
    .description("list the skills: domain, description, required scopes")
    .action(async () => {
      const data = allSkills().map(({ text: _text, ...summary }) => summary);
      await emitEnvelope(ctx, list, {
        data,
        meta: { count: data.length },
        columns: ["domain", "description", "required_scopes"],
      });
    });
  setMeta(list, { layer: "builtin", turn: readOnlyInTurns("reads embedded guides") });

  const show = skills.command("show")
    .description("print a skill (markdown): larkit skills show calendar")
    .argument("<domain>", "the skill's domain, from `larkit skills list`")
    .action(async (domain: string) => {
      const all = allSkills();
      const skill = all.find((s) => s.domain === domain);
      if (!skill) {
        throw errors.notFound(`no skill for "${domain}"`, {
          hint: `available: ${all.map((s) => s.domain).join(", ")} (larkit skills list)`,
        });
      }
      await emitText(ctx, skill.text);
    });
  setMeta(show, { layer: "builtin", turn: readOnlyInTurns("reads embedded guides") });
}
