/**
 * `larkit skills list` and `larkit skills show <domain>`: the agent workflow guides embedded in the binary,
 * so an agent can learn a domain's order of steps, preferred commands and confirmations from larkit itself.
 */
import { allSkills } from "../../skills/catalog.ts";
import { readOnlyInTurns } from "../command_meta.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { emitOutput, LIST_FORMATS, listFlags } from "./envelope_output.ts";

const list = defineCommand({
  words: ["skills", "list"],
  description: "list the skills: domain, description, required scopes",
  flags: listFlags(),
  turn: readOnlyInTurns("reads embedded guides"),
  async action(ctx, { flags }) {
    const data = allSkills().map(({ text: _text, ...summary }) => summary);
    await emitOutput(ctx, list.words, LIST_FORMATS, flags, {
      data,
      meta: { count: data.length },
      columns: ["domain", "description", "required_scopes"],
    });
  },
});

const show = defineCommand({
  words: ["skills", "show"],
  description: "print a skill (markdown): larkit skills show calendar",
  flags: {},
  args: [{ name: "domain", description: "the skill's domain, from `larkit skills list`", required: true }],
  turn: readOnlyInTurns("reads embedded guides"),
  async action(ctx, { args: [domain] }) {
    const all = allSkills();
    const skill = all.find((s) => s.domain === domain);
    if (!skill) {
      throw errors.notFound(`no skill for "${domain}"`, {
        hint: `available: ${all.map((s) => s.domain).join(", ")} (larkit skills list)`,
      });
    }
    await emitText(ctx, skill.text);
  },
});

export const skillsCommands: CommandModule = {
  groups: [{ words: ["skills"], description: "workflow guides for agents, one per domain" }],
  commands: [list, show],
};
