/**
 * Risk confirmation, shared by shortcuts, generated API commands and raw `api`. In a terminal run a
 * high-risk write needs `--yes` (or a "y" typed at a TTY prompt); in an in-process host run (agent server
 * turn) the host's approver is asked before every write, and always for high-risk writes.
 */
import type { RunContext } from "./context.ts";
import { type PlannedRequest, queryString } from "./output/dry_run.ts";
import { emitPrompt } from "./output/emit.ts";
import { errors, interruptedWith } from "./output/errors.ts";
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

/** One line of a value, cut so a large body cannot flood the prompt. */
function brief(value: unknown, max = 160): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}\u2026` : text;
}

/**
 * What a confirmed write will change, for the person answering the prompt: each planned request of the
 * dry-run document (method, URL with its query, what it is for, its body), else the summary itself.
 */
export function planLines(summary: unknown): string[] {
  if (summary === undefined || summary === null) return [];
  const api = (summary as { api?: unknown }).api;
  if (Array.isArray(api)) {
    return api.flatMap((step: PlannedRequest) => [
      `  ${step.method} ${step.url}${queryString(step.params)}${
        step.description ? `  (${step.description})` : ""
      }`,
      ...(step.body !== undefined ? [`    body: ${brief(step.body)}`] : []),
    ]);
  }
  if (typeof summary !== "object") return [`  ${brief(summary)}`];
  // A local step (config remove): one "key: value" line per fact, lists as words.
  return Object.entries(summary).map(([k, v]) =>
    `  ${k}: ${Array.isArray(v) && v.every((x) => typeof x === "string") ? v.join(", ") : brief(v)}`
  );
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
    const plan = planLines(check.summary);
    await emitPrompt(
      ctx,
      `larkit ${name} is a high-risk write.${
        plan.length ? ` It will:\n${plan.join("\n")}\n` : " "
      }Proceed? [y/N] `,
    );
    const answer = (await unlessAborted(p.stdin.readLine(), p.signal).catch((e) => {
      throw interruptedWith(e, { hint: "nothing was sent: the command stopped at the confirmation prompt" });
    }))?.trim().toLowerCase();
    if (answer === "y" || answer === "yes") return;
    throw errors.confirmationRequired(`\`larkit ${name}\` was not confirmed`, {
      hint: "re-run and answer y, or add --yes",
    });
  }
  throw errors.confirmationRequired(`\`larkit ${name}\` is a high-risk write and needs confirmation`, {
    hint: `add --yes to confirm: larkit ${[...check.command, "--yes"].join(" ")} \u2026`,
  });
}
