/**
 * Risk confirmation, shared by shortcuts, generated API commands and raw `api`. In a terminal run a
 * high-risk write needs `--yes` (or a "y" typed at a TTY prompt); in an in-process host run (agent server
 * turn) the host's approver is asked before every write, and always for high-risk writes.
 */
import type { RunContext } from "./context.ts";
import { emitPrompt } from "./output/emit.ts";
import { errors } from "./output/errors.ts";
import type { Risk } from "./provider.ts";

export interface RiskCheck {
  risk: Risk;
  argv: string[];
  command: string[];
  service?: string;
  /** `--yes` was given. */
  yes: boolean;
  /** What would be done (the dry-run description), shown to whoever approves. */
  summary: unknown;
}

/** The answer typed at the prompt; Ctrl-C (the run's abort) ends the wait at once with the abort's error. */
function unlessAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export async function confirmRisk(ctx: RunContext, check: RiskCheck): Promise<void> {
  const { p } = ctx;
  const name = check.command.join(" ");
  if (p.approver) {
    if (check.risk === "read") return;
    const decision = await p.approver({
      argv: check.argv,
      command: check.command,
      service: check.service,
      risk: check.risk,
      summary: check.summary,
    });
    if (decision !== "accept") {
      throw errors.confirmationRequired(`\`larkit ${name}\` was not approved (${decision})`, {
        hint: "the client declined this write; nothing was sent",
      });
    }
    return;
  }
  if (check.risk !== "high-risk-write" || check.yes) return;
  if (p.stdin.isTTY && p.stderr.isTTY) {
    await emitPrompt(ctx, `larkit ${name} is a high-risk write. Proceed? [y/N] `);
    const answer = (await unlessAborted(p.stdin.readLine(), p.signal))?.trim().toLowerCase();
    if (answer === "y" || answer === "yes") return;
    throw errors.confirmationRequired(`\`larkit ${name}\` was not confirmed`, {
      hint: "re-run and answer y, or add --yes",
    });
  }
  throw errors.confirmationRequired(`\`larkit ${name}\` is a high-risk write and needs confirmation`, {
    hint: `add --yes to confirm: larkit ${[...check.command, "--yes"].join(" ")} …`,
  });
}
