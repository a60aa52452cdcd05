/**
 * The shortcut pipeline: ONE function running the fixed steps in the seed's order. The order is the contract
 * (an identity is known before scopes are checked, scopes are checked before anything is sent, a dry-run
 * stops before risk and execute), so it lives here and nowhere else, and `pipeline_test.ts` fails if two
 * steps swap.
 *
 *   1. resolve the identity, honouring strict mode        5. resolve input flags (@file, stdin, JSON, types)
 *   2. load the config (the account)                      6. --dry-run: print the plan and stop, nothing sent
 *   3. check the identity's scopes locally                7. confirm the risk, then execute
 *   4. build the runtime context (client, out, format)
 */
import { z } from "zod";
import { resolveIdentity } from "../cli/auth/identity.ts";
import { checkScopes } from "../cli/auth/scopes.ts";
import type { Account, Identity } from "../cli/auth/types.ts";
import type { RunContext } from "../cli/context.ts";
import { errors } from "../cli/output/errors.ts";
import { checkJq } from "../cli/output/formats/jq.ts";
import { parseFormat } from "../cli/output/formats/render.ts";
import { confirmRisk } from "../cli/risk.ts";
import { timeZoneOf } from "./common/time.ts";
import type { FlagSpecs, Shortcut, ShortcutContext } from "./declare.ts";
import { type RawFlagValue, resolveFlags } from "./inputs.ts";
import { emitDryRun, emitResult, type OutputSettings } from "./output.ts";

/** What the command line gave: the automatic flags, and the shortcut's own flags by name. */
export interface Invocation {
  as?: string;
  dryRun: boolean;
  yes: boolean;
  format?: string;
  jq?: string;
  flags: Record<string, RawFlagValue>;
}

const AsFlag = z.enum(["user", "bot", "auto"]);

function parseAs(raw: string | undefined) {
  if (raw === undefined) return undefined;
  const parsed = AsFlag.safeParse(raw);
  if (!parsed.success) {
    throw errors.validation(`invalid value "${raw}" for --as`, {
      hint: "use --as user, --as bot or --as auto",
    });
  }
  return parsed.data;
}

/** Step 4: everything a shortcut needs, except its flags (step 5). */
async function buildRuntime<F extends FlagSpecs>(
  run: RunContext,
  shortcut: Shortcut<F>,
  identity: Identity,
  account: Account,
  inv: Invocation,
): Promise<Omit<ShortcutContext<F>, "flags">> {
  const format = shortcut.hasFormat ? parseFormat(inv.format) : "json";
  if (inv.jq !== undefined) {
    if (format !== "json") {
      throw errors.validation(`--jq and --format ${format} are mutually exclusive`, {
        hint: "--jq filters the JSON envelope; drop one of them",
      });
    }
    await checkJq(inv.jq);
  }
  const settings: OutputSettings = { identity, format, jq: inv.jq };
  const client = run.http();
  return {
    run,
    p: run.p,
    diag: run.diag,
    identity,
    account,
    executionId: run.p.random.uuid(),
    timeZone: timeZoneOf(run.p.env),
    format,
    client,
    api: async <T>(req: Parameters<ShortcutContext<F>["api"]>[0]) =>
      (await client.call<T>({ ...req, identity })).data,
    plan: async ({ description, method, path, query, body }) => ({
      method,
      // Placeholders such as `<primary>` stand for values only known at run time; show them unescaped.
      url: (await client.url(path)).replace(/%3C([a-z_]+)%3E/g, "<$1>"),
      ...(query && Object.keys(query).length ? { query } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(description ? { description } : {}),
    }),
    out: (data, meta) => emitResult(run, { ...settings, format: "json" }, data, meta),
    outFormat: (data, meta, pretty) => emitResult(run, settings, data, meta, pretty),
  };
}

/** Runs one shortcut invocation through the seven steps. */
export async function runShortcut<F extends FlagSpecs>(
  run: RunContext,
  shortcut: Shortcut<F>,
  inv: Invocation,
): Promise<void> {
  const command = [shortcut.service, shortcut.command];
  // 1. identity, honouring strict mode
  const identity = await resolveIdentity(run, { flag: parseAs(inv.as), supported: shortcut.authTypes });
  // 2. config
  const account = await run.credentials().account();
  // 3. local scope check, before any request
  await checkScopes(run, identity, shortcut.scopes[identity] ?? []);
  // 4. runtime context
  const runtime = await buildRuntime(run, shortcut, identity, account, inv);
  // 5. input flags
  const flags = await resolveFlags(run.p, shortcut.flags, inv.flags, `larkit ${command.join(" ")} --help`);
  const ctx: ShortcutContext<F> = { ...runtime, flags };
  shortcut.validate?.(ctx);
  // 6. dry-run
  if (inv.dryRun) {
    await emitDryRun(run, { identity, format: runtime.format, jq: inv.jq }, await shortcut.dryRun(ctx));
    return;
  }
  // 7. risk confirmation, then execute
  if (shortcut.risk !== "read") {
    await confirmRisk(run, {
      risk: shortcut.risk,
      argv: run.argv,
      command,
      service: shortcut.service,
      yes: inv.yes,
      summary: await shortcut.dryRun(ctx),
    });
  }
  await shortcut.execute(ctx);
}
