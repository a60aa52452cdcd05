/**
 * The shape of a shortcut declaration (`larkit <service> +<name>`), and the flag builders that give each flag
 * its type. A shortcut is data plus two functions: `dryRun` describes the requests it would send, `execute`
 * sends them. Everything around them (identity, config, scopes, inputs, dry-run, risk, output) is the
 * pipeline's job (`pipeline.ts`), so no shortcut can skip a step.
 */
import { z } from "zod";
import type { Account } from "../cli/auth/types.ts";
import type { RunContext } from "../cli/context.ts";
import type { HttpClient, Query } from "../cli/http/client.ts";
import type { Diagnostics } from "../cli/output/diagnostics.ts";
import type { Identity, Meta } from "../cli/output/envelope.ts";
import type { OutputFormat } from "../cli/output/formats/render.ts";
import type { Provider, Risk } from "../cli/provider.ts";

export type InputSource = "file" | "stdin";
export type FlagKind = "string" | "boolean" | "integer" | "json";

/** One flag: how it appears on the command line, and the schema its (resolved) value must satisfy. */
export interface FlagSpec<T> {
  kind: FlagKind;
  description: string;
  schema: z.ZodType<T>;
  /** Where the value may come from besides the command line: `@file` (path inside the working dir), `-`. */
  input?: InputSource[];
  choices?: readonly string[];
  /** Shown in help; the schema enforces it. */
  required?: boolean;
  /** Shown in help as the default. */
  defaultText?: string;
  placeholder?: string;
}

export type FlagSpecs = Record<string, FlagSpec<unknown>>;

/** The typed values of a shortcut's flags, keyed by flag name as typed on the command line. */
export type FlagValues<F extends FlagSpecs> = { [K in keyof F]: F[K] extends FlagSpec<infer T> ? T : never };

function withInput(description: string, input: InputSource[] | undefined): string {
  if (!input?.length) return description;
  const how = [input.includes("file") ? "@file" : "", input.includes("stdin") ? "- for stdin" : ""]
    .filter(Boolean).join(", ");
  return `${description} (supports ${how})`;
}

interface StringOptions {
  input?: InputSource[];
  placeholder?: string;
}

const nonEmpty = z.string().min(1, "must not be empty");

/** Flag builders: each returns a FlagSpec whose type follows from its options. */
export const flag = {
  string(description: string, opts: StringOptions = {}): FlagSpec<string | undefined> {
    return {
      kind: "string",
      description: withInput(description, opts.input),
      schema: nonEmpty.optional(),
      ...opts,
    };
  },
  requiredString(description: string, opts: StringOptions = {}): FlagSpec<string> {
    return {
      kind: "string",
      description: withInput(description, opts.input),
      schema: z.string({ error: "is required" }).min(1, "must not be empty"),
      required: true,
      ...opts,
    };
  },
  choice<const V extends readonly [string, ...string[]]>(
    values: V,
    description: string,
    opts: { default: V[number] },
  ): FlagSpec<V[number]> {
    return {
      kind: "string",
      description,
      schema: z.enum(values, { error: `must be one of: ${values.join(", ")}` }).default(
        opts.default,
      ) as z.ZodType<
        V[number]
      >,
      choices: values,
      defaultText: opts.default,
    };
  },
  requiredChoice<const V extends readonly [string, ...string[]]>(
    values: V,
    description: string,
  ): FlagSpec<V[number]> {
    return {
      kind: "string",
      description,
      schema: z.enum(values, { error: `must be one of: ${values.join(", ")}` }) as z.ZodType<V[number]>,
      choices: values,
      required: true,
    };
  },
  boolean(description: string): FlagSpec<boolean> {
    return { kind: "boolean", description, schema: z.boolean().default(false) };
  },
  integer(description: string, opts: { default: number; min: number; max: number }): FlagSpec<number> {
    const schema = z.string().regex(/^-?\d+$/, "must be an integer").transform(Number)
      .pipe(z.number().min(opts.min).max(opts.max))
      .optional()
      .transform((n) => n ?? opts.default);
    return { kind: "integer", description, schema, defaultText: String(opts.default), placeholder: "n" };
  },
  json(description: string, opts: { input?: InputSource[] } = {}): FlagSpec<unknown> {
    return {
      kind: "json",
      description: withInput(description, opts.input),
      schema: z.unknown(),
      placeholder: "json",
      ...opts,
    };
  },
};

/** One request a shortcut would send, as `--dry-run` prints it. */
export interface PlannedRequest {
  method: string;
  /** Absolute URL without the query. */
  url: string;
  query?: Query;
  body?: unknown;
  /** What the step is for, when a shortcut sends several. */
  description?: string;
}

/** What a shortcut would do: its requests in order, plus shortcut-specific facts (e.g. the idempotency key). */
export interface DryRunPlan {
  api: PlannedRequest[];
  [extra: string]: unknown;
}

/** What `dryRun` and `execute` receive: everything resolved, nothing left to decide. */
export interface ShortcutContext<F extends FlagSpecs> {
  run: RunContext;
  p: Provider;
  diag: Diagnostics;
  identity: Identity;
  account: Account;
  flags: FlagValues<F>;
  /** One id per invocation: the default idempotency key of writes, stable between dry-run and execute. */
  executionId: string;
  /** IANA zone for dates given without one and for "today": `TZ`, else the system zone. */
  timeZone: string;
  format: OutputFormat;
  client: HttpClient;
  /** An OpenAPI call as the resolved identity; returns the response's `data`. */
  api<T = unknown>(req: ApiCall): Promise<T>;
  /** Describes an OpenAPI request for the dry-run plan (absolute URL, query and body as they would be sent). */
  plan(req: ApiCall & { description?: string }): Promise<PlannedRequest>;
  /** The result as the success envelope (JSON; `--jq` applies). */
  out(data: unknown, meta?: Meta): Promise<void>;
  /** The result in the chosen `--format`; `pretty` renders `data` with the given summary. */
  outFormat(data: unknown, meta?: Meta, pretty?: (data: unknown, columns?: number) => string): Promise<void>;
}

export interface ApiCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Query;
  body?: unknown;
  form?: FormData;
}

export interface Shortcut<F extends FlagSpecs = FlagSpecs> {
  service: string;
  /** The command name, starting with `+`. */
  command: `+${string}`;
  description: string;
  /** Shown under "Examples:" in `--help`. */
  examples: string[];
  risk: Risk;
  /** Identities it can run as, preferred first. */
  authTypes: Identity[];
  /** Scopes the identity's grant must hold; checked locally before any request. */
  scopes: Partial<Record<Identity, string[]>>;
  /** Adds `--format json|pretty|table|csv|ndjson`. */
  hasFormat: boolean;
  flags: F;
  /** Rules across flags (exactly one of, mutually exclusive, formats); throws a `validation` error. */
  validate?(ctx: ShortcutContext<F>): void;
  /** The requests it would send; must not send any. */
  dryRun(ctx: ShortcutContext<F>): Promise<DryRunPlan>;
  execute(ctx: ShortcutContext<F>): Promise<void>;
}

/** Declares a shortcut with its flag types inferred, for `shortcuts/index.ts`. */
export function defineShortcut<F extends FlagSpecs>(shortcut: Shortcut<F>): Shortcut<F> {
  return shortcut;
}
