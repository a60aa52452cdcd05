/**
 * `larkit doctor [--offline] [--format json|pretty]`: the report goes to stdout whatever it finds (it is the
 * result); the exit code is 1 when a check failed, as the reference CLI does, with no error envelope.
 */
import type { Command } from "commander";
import { refusedInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { runDoctor } from "../doctor/checks.ts";
import { emitRendered } from "../output/emit.ts";
import { toJsonDocument } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import { applyJq, checkJq } from "../output/formats/jq.ts";

const MARK = { pass: "ok  ", fail: "FAIL", warn: "warn", skip: "skip" } as const;

export function registerDoctor(program: Command, ctx: RunContext): void {
  const cmd = program.command("doctor")
    .description(
      "check config, credentials, tokens, clock skew, endpoints and registry; exit 1 if a check fails",
    )
    .option("--offline", "skip the checks that need the network")
    .option("--format <format>", "json (default) or pretty", "json")
    .option("-q, --jq <expr>", "jq filter over the report, e.g. '.checks[] | select(.status == \"fail\")'")
    .action(async (opts: { offline?: boolean; format: string; jq?: string }) => {
      if (opts.format !== "json" && opts.format !== "pretty") {
        throw errors.validation(`--format ${opts.format} is not supported by doctor`, {
          hint: "use json or pretty",
        });
      }
      if (opts.jq !== undefined) await checkJq(opts.jq);
      const report = await runDoctor(ctx, { offline: !!opts.offline || ctx.globals.offline });
      // The report is doctor's own document (not an envelope); --jq filters it and takes the place of the pretty text.
      const text = opts.jq !== undefined
        ? await applyJq(report, opts.jq)
        : opts.format === "pretty"
        ? report.checks.map((c) =>
          `${MARK[c.status]}  ${c.name}: ${c.message}${c.hint ? `\n      \u2192 ${c.hint}` : ""}`
        )
          .join("\n") + "\n"
        : toJsonDocument(report);
      await emitRendered(ctx, text);
      if (!report.ok) ctx.state.exitCode = 1;
    });
  setMeta(cmd, { layer: "builtin", turn: refusedInTurns("refreshes the registry cache when it is due") });
}
