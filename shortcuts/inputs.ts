/**
 * Step 5 of the pipeline: turning raw flag values into typed ones. A value may come from the command line,
 * from a file (`@path`, only inside the working directory), or from stdin (`-`, one flag per run);
 * `@@text` is the literal `@text`. JSON flags are parsed, then every value meets its flag's schema. Each
 * failure is a `validation` error that names the flag, so the fix is obvious.
 */
import { errors } from "../cli/output/errors.ts";
import { INPUT_LIMITS, localPaths } from "../cli/input_limits.ts";
import type { Provider } from "../cli/provider.ts";
import { flagSchema, type FlagSpecs, type FlagValues } from "./declare.ts";

export type RawFlagValue = string | string[] | boolean | undefined;

async function fromFile(p: Provider, flagName: string, path: string): Promise<string> {
  return await (await localPaths()).readLocalText(p, flagName, path, INPUT_LIMITS.value);
}

async function fromStdin(p: Provider, flagName: string): Promise<string> {
  const bytes = await (await localPaths()).readStdinBounded(p, flagName, INPUT_LIMITS.value);
  const text = new TextDecoder().decode(bytes).trim();
  if (!text) {
    throw errors.validation(`--${flagName}: stdin is empty`, {
      hint: "pipe the value in, or pass it directly",
    });
  }
  return text;
}

/** `-`, `@path` and `@@text` for the flags that accept them; other values pass through. */
async function resolveSources(
  p: Provider,
  specs: FlagSpecs,
  raw: Record<string, RawFlagValue>,
): Promise<Record<string, RawFlagValue>> {
  const out: Record<string, RawFlagValue> = { ...raw };
  let stdinUsedBy: string | undefined;
  for (const [name, spec] of Object.entries(specs)) {
    const value = raw[name];
    if (typeof value !== "string" || !spec.input?.length) continue;
    if (value === "-" && spec.input.includes("stdin")) {
      if (stdinUsedBy) {
        throw errors.validation(
          `--${name}: stdin (-) can only be used by one flag, already used by --${stdinUsedBy}`,
        );
      }
      stdinUsedBy = name;
      out[name] = await fromStdin(p, name);
    } else if (value.startsWith("@@")) {
      out[name] = value.slice(1);
    } else if (value.startsWith("@") && spec.input.includes("file")) {
      out[name] = await fromFile(p, name, value.slice(1));
    }
  }
  return out;
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.validation(`--${name}: invalid JSON: ${e instanceof Error ? e.message : e}`);
  }
}

/** Step 5: raw command-line values -> typed flag values, or a `validation` error naming the flag. */
export async function resolveFlags<F extends FlagSpecs>(
  p: Provider,
  specs: F,
  raw: Record<string, RawFlagValue>,
  helpCommand: string,
): Promise<FlagValues<F>> {
  const sourced = await resolveSources(p, specs, raw);
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = sourced[name];
    if (value === undefined && spec.absent && !spec.required) {
      values[name] = spec.absent();
      continue;
    }
    const input = spec.kind === "json" && typeof value === "string" ? parseJson(name, value) : value;
    const parsed = (await flagSchema(spec)).safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const said = issue?.message ?? "invalid";
      // The choices, unless the schema's own message already lists them.
      const allowed = spec.choices && !said.includes(spec.choices.join(", "))
        ? `; allowed: ${spec.choices.join(", ")}`
        : "";
      throw errors.validation(
        value === undefined
          ? `--${name} is required`
          : `invalid value "${String(value)}" for --${name}: ${said}${allowed}`,
        { hint: `see the flags and examples: ${helpCommand}` },
      );
    }
    values[name] = parsed.data;
  }
  return values as FlagValues<F>;
}
