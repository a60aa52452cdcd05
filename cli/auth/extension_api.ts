/**
 * The protocol between larkit and a credential extension provider (docs/credential-providers.md). A provider
 * is an executable, run once per question: larkit writes one JSON request on its stdin and reads one JSON
 * answer from its stdout, like the `credential_process` of well-known cloud CLIs. Answers are parsed with the
 * schemas below, so a malformed answer is a clear `config` error naming the field.
 *
 * A program, not a module: nothing the provider does runs inside larkit (or inside the agent server), and
 * providers work the same under `deno compile`, where importing a user's file cannot.
 */
import * as z from "zod";
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
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    appId: z.optional(z.string()),
    brand: z._default(z.enum(BRANDS), "feishu"),
    /** Required for brand `custom`: the suite's own domains or loopback (see docs). */
    baseUrl: z.optional(z.string()),
    /** Identities this provider can hand out tokens for. */
    identities: z.array(z.enum(IDENTITIES)).check(z.minLength(1)),
    defaultAs: z.optional(z.enum(AS_VALUES)),
    strictMode: z._default(z.enum(STRICT_MODES), "off"),
    user: z.optional(z.object({ openId: z.string(), name: z.optional(z.string()) })),
    /** Granted scopes per identity when known, for the local scope pre-check; omit when unknown. */
    scopes: z.optional(
      z.object({ user: z.optional(z.array(z.string())), bot: z.optional(z.array(z.string())) }),
    ),
  })
);

/** `account`: the account, or null to let the next provider of the chain answer. */
export const AccountAnswerSchema = z.lazy(() =>
  z.object({ ...versioned(), account: z.nullable(ExtensionAccountSchema) })
);

/** `token`: a token for the identity asked. */
export const TokenAnswerSchema = z.lazy(() =>
  z.object({
    ...versioned(),
    token: z.string().check(z.minLength(1)),
    /** Unix ms; larkit asks again after this. */
    expiresAt: z.optional(z.number()),
    scopes: z.optional(z.array(z.string())),
  })
);

/** `invalidate`: true when asking `token` again gives another token; false when none other can be had. */
export const InvalidateAnswerSchema = z.lazy(() => z.object({ ...versioned(), invalidated: z.boolean() }));

export type ExtensionAccount = z.infer<typeof ExtensionAccountSchema>;
