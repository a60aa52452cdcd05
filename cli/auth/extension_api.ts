/**
 * The protocol between larkit and a credential extension provider (docs/credential-providers.md). A provider
 * is an executable, run once per question: larkit writes one JSON request on its stdin and reads one JSON
 * answer from its stdout, like the `credential_process` of well-known cloud CLIs. Answers are parsed with the
 * schemas below, so a malformed answer is a clear `config` error naming the field.
 *
 * A program, not a module: nothing the provider does runs inside larkit (or inside the agent server), and
 * providers work the same under `deno compile`, where importing a user's file cannot.
 */
import { z } from "zod";
import { AS_VALUES, BRANDS, IDENTITIES, STRICT_MODES } from "../config/values.ts";

export const PROTOCOL_VERSION = 1;

/** Longest a provider may take to answer; it is then ended with everything it started. */
export const PROVIDER_TIMEOUT_MS = 15_000;
/** Largest answer read from a provider's stdout; a larger one ends it. */
export const PROVIDER_MAX_OUTPUT_BYTES = 64 * 1024;

export type ProviderRequest =
  | { version: typeof PROTOCOL_VERSION; action: "account" }
  | { version: typeof PROTOCOL_VERSION; action: "token"; identity: "user" | "bot" }
  /** The suite rejected `token` (revoked, expired early): drop it so the next `token` request mints another. */
  | { version: typeof PROTOCOL_VERSION; action: "invalidate"; identity: "user" | "bot"; token: string };

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
const versioned = () => ({ version: z.literal(PROTOCOL_VERSION) });

export const ExtensionAccountSchema = z.lazy(() =>
  z.object({
    /** Shown in errors and as the account source `extension:<name>`; the program's file name by default. */
    name: z.string().min(1).max(64).optional(),
    appId: z.string().optional(),
    brand: z.enum(BRANDS).default("feishu"),
    /** Required for brand `custom`: the suite's own domains or loopback (see docs). */
    baseUrl: z.string().optional(),
    /** Identities this provider can hand out tokens for. */
    identities: z.array(z.enum(IDENTITIES)).min(1),
    defaultAs: z.enum(AS_VALUES).optional(),
    strictMode: z.enum(STRICT_MODES).default("off"),
    user: z.object({ openId: z.string(), name: z.string().optional() }).optional(),
    /** Granted scopes per identity when known, for the local scope pre-check; omit when unknown. */
    scopes: z.object({ user: z.array(z.string()).optional(), bot: z.array(z.string()).optional() })
      .optional(),
  })
);

/** `account`: the account, or null to let the next provider of the chain answer. */
export const AccountAnswerSchema = z.lazy(() =>
  z.object({ ...versioned(), account: ExtensionAccountSchema.nullable() })
);

/** `token`: a token for the identity asked. */
export const TokenAnswerSchema = z.lazy(() =>
  z.object({
    ...versioned(),
    token: z.string().min(1),
    /** Unix ms; larkit asks again after this. */
    expiresAt: z.number().optional(),
    scopes: z.array(z.string()).optional(),
  })
);

/** `invalidate`: true when asking `token` again gives another token; false when none other can be had. */
export const InvalidateAnswerSchema = z.lazy(() => z.object({ ...versioned(), invalidated: z.boolean() }));

export type ExtensionAccount = z.infer<typeof ExtensionAccountSchema>;
