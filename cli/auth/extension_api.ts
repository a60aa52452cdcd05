/**
 * The contract for people who write a credential provider (docs/credential-providers.md). A provider module
 * default-exports a factory; larkit calls it once per run with a small host, then asks `account()`. Answers
 * are parsed with the schemas below, so a provider written in plain JavaScript gets a clear `config` error
 * for a malformed answer instead of undefined behaviour.
 */
import { z } from "zod";
import { AS_VALUES, BRANDS, IDENTITIES, STRICT_MODES } from "../config/config_file.ts";
import type { FetchFn } from "../provider.ts";

export const ExtensionAccountSchema = z.object({
  appId: z.string().optional(),
  brand: z.enum(BRANDS).default("feishu"),
  /** Required for brand `custom`. */
  baseUrl: z.string().optional(),
  /** Identities this provider can hand out tokens for. */
  identities: z.array(z.enum(IDENTITIES)).min(1),
  defaultAs: z.enum(AS_VALUES).optional(),
  strictMode: z.enum(STRICT_MODES).default("off"),
  user: z.object({ openId: z.string(), name: z.string().optional() }).optional(),
  /** Granted scopes per identity when known, for the local scope pre-check; omit when unknown. */
  scopes: z.object({ user: z.array(z.string()).optional(), bot: z.array(z.string()).optional() }).optional(),
});

export const ExtensionTokenSchema = z.object({
  token: z.string().min(1),
  /** Unix ms; larkit asks again after this. */
  expiresAt: z.number().optional(),
  scopes: z.array(z.string()).optional(),
});

export type ExtensionAccount = z.input<typeof ExtensionAccountSchema>;
export type ExtensionToken = z.input<typeof ExtensionTokenSchema>;

/** What larkit hands the factory: read-only views of the run's environment, clock and network. */
export interface ExtensionHost {
  env(name: string): string | undefined;
  now(): number;
  fetch: FetchFn;
}

export interface CredentialProviderExtension {
  /** Shown in errors and as the account source `extension:<name>`. */
  name: string;
  /** The account to use, or null to let the next provider answer. Throwing stops the chain. */
  account(): Promise<ExtensionAccount | null>;
  /** A token for the identity; only called for identities the account listed. */
  token(identity: "user" | "bot"): Promise<ExtensionToken>;
}

export type CredentialProviderFactory = (host: ExtensionHost) => CredentialProviderExtension;
