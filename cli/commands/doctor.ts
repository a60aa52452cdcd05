/**
 * `larkit doctor [--offline] [--format json|pretty]`: the report goes to stdout whatever it finds (it is the
 * result); the exit code is 1 when a check failed, as the reference CLI does, with no error envelope.
 */
import { flag } from "../../shortcuts/declare.ts";
import { refusedInTurns } from "../command_meta.ts";
import { runDoctor } from "../doctor/checks.ts";
import { emitRendered } from "../output/emit.ts";
import { toJsonDocument } from "../output/envelope.ts";
import { applyJq, checkJq } from "../output/formats/jq.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";

const MARK = { pass: "ok  ", fail: "FAIL", warn: "warn", skip: "skip" } as const;

const doctor = defineCommand({
  words: ["doctor"],
  description:
    "check config, credentials, tokens, clock skew, endpoints and registry; exit 1 if a check fails",
  flags: {
    offline: flag.boolean("skip the checks that need the network"),
    format: Object.assign(flag.choice(["json", "pretty"], "output format", { default: "json" }), {
      placeholder: "format",
    }),
    jq: flag.string("jq filter over the report, e.g. '.checks[] | select(.status == \"fail\")'", {
      placeholder: "expr",
      short: "q",
    }),
  },
  turn: refusedInTurns("refreshes the registry cache when it is due"),
  async action(ctx, { flags }) {
    if (flags.jq !== undefined) await checkJq(flags.jq);
    const report = await runDoctor(ctx, { offline: flags.offline || ctx.globals.offline });
    // The report is doctor's own document (not an envelope); --jq filters it and takes the place of the pretty text.
    const text = flags.jq !== undefined
      ? await applyJq(report, flags.jq)
      : flags.format === "pretty"
      ? report.checks.map((c) =>
        `${MARK[c.status]}  ${c.name}: ${c.message}${c.hint ? `\n      \u2192 ${c.hint}` : ""}`
      )
        .join("\n") + "\n"
      : toJsonDocument(report);
    await emitRendered(ctx, text);
    if (!report.ok) ctx.state.exitCode = 1;
  },
});

export const doctorCommands: CommandModule = { groups: [], commands: [doctor] };
