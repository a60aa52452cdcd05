/**
 * The app flags shared by `config init` and `profile add`. The secret has no flag on purpose: a value on the
 * command line lands in shell history and process listings, so it is read from stdin (or typed at a prompt).
 */
import { flag } from "../../shortcuts/declare.ts";
import { BRANDS, LANGS } from "../config/config_file.ts";
import type { AppSettings } from "../config/setup.ts";
import type { RunContext } from "../context.ts";
import { INPUT_LIMITS, inputTooLarge } from "../input_limits.ts";
import { emitPrompt } from "../output/emit.ts";
import { errors } from "../output/errors.ts";

/** The app flags, declared with the shortcut flag builders (`config init`, `profile add`). */
export function appFlags() {
  return {
    "app-id": flag.string("the app's id (cli_...)", { placeholder: "id" }),
    "app-secret-stdin": flag.boolean("read the app secret from the first line of stdin"),
    brand: flag.optionalChoice(BRANDS, "feishu (default), lark, or custom", { placeholder: "brand" }),
    "base-url": flag.string(
      "the origin of a custom brand (https on the suite's domains, or loopback); implies custom",
      { placeholder: "url" },
    ),
    // UNTRUSTED_FLAG, spelt out so the flag's value is typed.
    "allow-untrusted-endpoint": flag.boolean(
      "--base-url: accept a host off the suite's domains (it receives your credentials)",
    ),
    lang: flag.optionalChoice(LANGS, "zh or en", { placeholder: "lang" }),
  } as const;
}

export interface AppFlags {
  appId?: string;
  appSecretStdin?: boolean;
  brand?: (typeof BRANDS)[number];
  baseUrl?: string;
  allowUntrustedEndpoint?: boolean;
  lang?: (typeof LANGS)[number];
}

/** The app flags' typed values under the names the setup code reads. */
export function appFlagsOf(flags: Record<string, unknown>): AppFlags {
  return {
    appId: flags["app-id"] as string | undefined,
    appSecretStdin: flags["app-secret-stdin"] as boolean,
    brand: flags.brand as AppFlags["brand"],
    baseUrl: flags["base-url"] as string | undefined,
    allowUntrustedEndpoint: flags["allow-untrusted-endpoint"] as boolean,
    lang: flags.lang as AppFlags["lang"],
  };
}

async function promptLine(ctx: RunContext, label: string): Promise<string> {
  await emitPrompt(ctx, label);
  return (await ctx.p.stdin.readLine())?.trim() ?? "";
}

/** The secret typed at a terminal is never echoed; the line break Enter would have echoed is written instead. */
async function readSecretLine(ctx: RunContext, max: number): Promise<string | null> {
  const { stdin } = ctx.p;
  if (!stdin.isTTY || !stdin.readSecret) return await stdin.readLine(max);
  await emitPrompt(ctx, "App secret (not shown): ");
  const secret = await stdin.readSecret(max);
  await emitPrompt(ctx, "\n");
  return secret;
}

async function secretFromStdin(ctx: RunContext): Promise<string> {
  // Bounded: a secret is short, so a stream without a newline is never held (the README's input limits).
  const secret = (await readSecretLine(ctx, INPUT_LIMITS.secret))?.trim();
  if (secret && secret.length > INPUT_LIMITS.secret) {
    throw inputTooLarge("app-secret-stdin", "stdin", INPUT_LIMITS.secret);
  }
  if (!secret) {
    throw errors.validation("--app-secret-stdin: stdin is empty", {
      hint: 'pipe it in: printf %s "$APP_SECRET" | larkit config init --app-id <id> --app-secret-stdin',
    });
  }
  return secret;
}

/** App id and secret from the flags; on a terminal, what is missing is asked for. */
export async function appCredentialsFrom(
  ctx: RunContext,
  flags: AppFlags,
  command: string,
): Promise<{ appId: string; appSecret: string }> {
  const interactive = ctx.p.stdin.isTTY && !flags.appSecretStdin;
  const appId = flags.appId ?? (interactive ? await promptLine(ctx, "App ID: ") : "");
  if (!appId) {
    throw errors.validation("--app-id is required", {
      hint: `larkit ${command} --app-id <id> --app-secret-stdin (the secret on stdin)`,
    });
  }
  if (flags.appSecretStdin) return { appId, appSecret: await secretFromStdin(ctx) };
  const appSecret = interactive ? (await readSecretLine(ctx, INPUT_LIMITS.secret))?.trim() ?? "" : "";
  if (!appSecret) {
    throw errors.validation("the app secret is required: pass --app-secret-stdin and pipe it in", {
      hint: `printf %s "$APP_SECRET" | larkit ${command} --app-id ${appId} --app-secret-stdin`,
    });
  }
  return { appId, appSecret };
}

export function appSettingsFrom(flags: AppFlags, appId: string): AppSettings {
  const brand = flags.brand ?? (flags.baseUrl ? "custom" : "feishu");
  if (brand === "custom" && !flags.baseUrl) {
    throw errors.validation("--brand custom needs --base-url", {
      hint: "e.g. --base-url http://127.0.0.1:8080",
    });
  }
  return {
    appId,
    brand,
    baseUrl: flags.baseUrl,
    allowUntrustedEndpoint: flags.allowUntrustedEndpoint,
    lang: flags.lang,
  };
}
