/**
 * How a shortcut's result reaches stdout: the success envelope, rendered in the chosen format or filtered by
 * `--jq`; and how a dry-run plan is shown (a banner on stderr, the plan as the result document).
 */
import type { RunContext } from "../cli/context.ts";
import { type Identity, type Meta, successEnvelope } from "../cli/output/envelope.ts";
import { applyJq } from "../cli/output/formats/jq.ts";
import { type OutputFormat, renderDocument } from "../cli/output/formats/render.ts";
import type { DryRunPlan, PlannedRequest } from "./declare.ts";

export interface OutputSettings {
  identity: Identity;
  format: OutputFormat;
  jq?: string;
}

export async function emitResult(
  run: RunContext,
  settings: OutputSettings,
  data: unknown,
  meta?: Meta,
  pretty?: (data: unknown, columns?: number) => string,
): Promise<void> {
  const envelope = successEnvelope({ identity: settings.identity, data, meta });
  const text = settings.jq !== undefined
    ? await applyJq(envelope, settings.jq)
    : renderDocument(envelope, settings.format, { columns: run.p.stdout.columns, pretty });
  await run.p.stdout.write(text);
}

function queryString(req: PlannedRequest): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The `pretty` form of a plan: `METHOD url?query` then the compact body, per request. */
export function planText(plan: DryRunPlan): string {
  return plan.api.map((req) => {
    const head = `${req.description ? `# ${req.description}\n` : ""}${req.method} ${req.url}${
      queryString(req)
    }`;
    return req.body === undefined ? head : `${head}\n  ${JSON.stringify(req.body)}`;
  }).join("\n") + "\n";
}

/** Step 6: the plan is the result (`meta.dry_run: true`); nothing is sent. */
export async function emitDryRun(run: RunContext, settings: OutputSettings, plan: DryRunPlan): Promise<void> {
  await run.diag.info("=== Dry Run === (nothing was sent)");
  const format = settings.format === "pretty" ? "pretty" : "json";
  await emitResult(run, { ...settings, format }, plan, { dry_run: true }, () => planText(plan));
}
