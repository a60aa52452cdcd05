/**
 * The shape of a shortcut declaration (`larkit <service> +<name>`), and the flag builders that give each flag
 * its type. A shortcut is data plus ONE function, `run`, written against the pipeline's context: every request
 * is declared as data (`Call`) and handed to `ctx.api` / `ctx.upload` / `ctx.download` / `ctx.mcp`. The
 * pipeline runs `run` twice: first as the plan (nothing is sent; each call answers with its declared
 * `planned` stand-in, and the requests become the dry-run document and the summary a confirmation shows),
 * then -- unless `--dry-run` -- for real. So dry-run and execute cannot disagree, every flag error surfaces
 * before the first request, and a shortcut cannot reach the network, the disk or stdout any other way.
 */
import type { Column } from "../cli/output/formats/rows.ts";
import type * as z from "zod";
import type { Query } from "../cli/http/client.ts";
import type { Identity, Meta } from "../cli/output/envelope.ts";
import type { Risk } from "../cli/provider.ts";
export type InputSource = "file" | "stdin";
export type FlagKind = "string" | "boolean" | "integer" | "json";

/** One flag: how it appears on the command line, and the schema its (resolved) value must satisfy. */
export interface FlagSpec<T> {
  kind: FlagKind;
  description: string;
  /** The schema its (resolved) value must satisfy, given as it is (a flag declared by hand)... */
  schema?: z.ZodMiniType<T>;
  /** ...or built from zod when a run first checks the flag (the builders below): see `flagSchema`. */
  build?: (zod: typeof z) => z.ZodMiniType<T>;
  /** Where the value may come from besides the command line: `@file` (path inside the working dir), `-`. */
  input?: InputSource[];
  choices?: readonly string[];
  /** Shown in help; the schema enforces it. */
  required?: boolean;
  /** Shown in help as the default. */
  defaultText?: string;
  placeholder?: string;
  /** One letter that also names it: `short: "q"` makes `-q` mean `--jq`. */
  short?: string;
  /** An older name kept so scripts do not break: hidden from help, a warning naming what replaces it. */
  deprecated?: string;
  /** A boolean that is on unless `--no-<name>` is given. */
  negatable?: boolean;
  /** May be given more than once, one value each (`--domain a --domain b`): its raw value is a list. */
  repeatable?: boolean;
  /**
   * Its value when not given, for a flag that may be left out: a run that gives only some flags builds no
   * schema for the others (zod's schemas are slow to build cold).
   */
  absent?: () => T;
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
  short?: string;
}

/** A flag as help and usage errors spell it: `--format <format>`, `--offline`, `--no-wait`. */
export function flagUsage(name: string, spec: FlagSpec<unknown>): string {
  if (spec.kind === "boolean") return spec.negatable ? `--no-${name}` : `--${name}`;
  return `--${name} <${spec.placeholder ?? "value"}>`;
}

/** A flag's description as help shows it: its own text, then its choices, "(required)", its default. */
export function flagHelp(spec: FlagSpec<unknown>): string {
  const notes = [
    spec.choices ? `(${spec.choices.join("|")})` : "",
    spec.required ? "(required)" : "",
    spec.defaultText !== undefined ? `(default: ${spec.defaultText})` : "",
  ].filter(Boolean);
  return [spec.description, ...notes].join(" ");
}

/** zod, loaded by the first flag schema built: a run that checks no flag value does not load it at all. */
let zod: typeof z | undefined;
/** Built schemas by builder, so a spec copied with `...` shares its original's. */
const BUILT = new WeakMap<object, z.ZodMiniType<unknown>>();

/** The schema a flag's value must satisfy, built on first use (zod's schemas are slow to build cold). */
export async function flagSchema<T>(spec: FlagSpec<T>): Promise<z.ZodMiniType<T>> {
  if (spec.schema) return spec.schema;
  if (!spec.build) throw new Error(`flag "${spec.description}" declares no schema`);
  zod ??= await import("zod");
  let built = BUILT.get(spec.build) as z.ZodMiniType<T> | undefined;
  if (!built) BUILT.set(spec.build, built = spec.build(zod));
  return built;
}

/**
 * A flag spec whose schema is built the first time a run checks it: a service's shortcut modules declare every
 * flag at import, and only the shortcut that runs validates its own (issue 17: schemas on first use).
 */
function lazy<T>(spec: FlagSpec<T>, build: (zod: typeof z) => z.ZodMiniType<T>): FlagSpec<T> {
  return { ...spec, build };
}

/** Flag builders: each returns a FlagSpec whose type follows from its options. */
export const flag = {
  string(description: string, opts: StringOptions = {}): FlagSpec<string | undefined> {
    return lazy(
      { kind: "string", description: withInput(description, opts.input), absent: () => undefined, ...opts },
      (z) => z.optional(z.string().check(z.minLength(1, "must not be empty"))),
    );
  },
  requiredString(description: string, opts: StringOptions = {}): FlagSpec<string> {
    return lazy(
      { kind: "string", description: withInput(description, opts.input), required: true, ...opts },
      (z) => z.string({ error: "is required" }).check(z.minLength(1, "must not be empty")),
    );
  },
  choice<const V extends readonly [string, ...string[]]>(
    values: V,
    description: string,
    opts: { default: V[number] },
  ): FlagSpec<V[number]> {
    return lazy(
      { kind: "string", description, choices: values, defaultText: opts.default, absent: () => opts.default },
      (z) =>
        z._default(
          z.enum(values, { error: `must be one of: ${values.join(", ")}` }),
          opts.default,
        ) as z.ZodMiniType<V[number]>,
    );
  },
  /** A string that takes `fallback` when absent (help and the catalogue show it as the default). */
  defaulted(description: string, fallback: string, opts: StringOptions = {}): FlagSpec<string> {
    return lazy(
      {
        kind: "string",
        description: withInput(description, opts.input),
        defaultText: fallback,
        absent: () => fallback,
        ...opts,
      },
      (z) => z._default(z.string().check(z.minLength(1, "must not be empty")), fallback),
    );
  },
  /** One of `values`, or absent (the command decides what absence means). */
  optionalChoice<const V extends readonly [string, ...string[]]>(
    values: V,
    description: string,
    opts: { placeholder?: string } = {},
  ): FlagSpec<V[number] | undefined> {
    return lazy(
      { kind: "string", description, choices: values, absent: () => undefined, ...opts },
      (z) =>
        z.optional(z.enum(values, { error: `must be one of: ${values.join(", ")}` })) as z.ZodMiniType<
          V[number] | undefined
        >,
    );
  },
  requiredChoice<const V extends readonly [string, ...string[]]>(
    values: V,
    description: string,
  ): FlagSpec<V[number]> {
    return lazy(
      { kind: "string", description, choices: values, required: true },
      (z) => z.enum(values, { error: `must be one of: ${values.join(", ")}` }) as z.ZodMiniType<V[number]>,
    );
  },
  boolean(description: string): FlagSpec<boolean> {
    return lazy({ kind: "boolean", description, absent: () => false }, (z) => z._default(z.boolean(), false));
  },
  /** On by default; `--no-<name>` turns it off (`--no-wait`, `--no-daemon`). */
  negatable(description: string): FlagSpec<boolean> {
    return lazy(
      { kind: "boolean", description, negatable: true, absent: () => true },
      (z) => z._default(z.boolean(), true),
    );
  },
  /** A value per occurrence, repeatable; none given is an empty list. */
  strings(description: string, opts: { placeholder?: string } = {}): FlagSpec<string[]> {
    return lazy(
      { kind: "string", description, repeatable: true, absent: () => [], ...opts },
      (z) => z._default(z.array(z.string().check(z.minLength(1, "must not be empty"))), []),
    );
  },
  integer(description: string, opts: { default: number; min: number; max: number }): FlagSpec<number> {
    return lazy(
      {
        kind: "integer",
        description,
        defaultText: String(opts.default),
        placeholder: "n",
        absent: () => opts.default,
      },
      (z) =>
        z.pipe(
          z.optional(
            z.pipe(
              z.pipe(z.string().check(z.regex(/^-?\d+$/, "must be an integer")), z.transform(Number)),
              z.number().check(z.minimum(opts.min), z.maximum(opts.max)),
            ),
          ),
          z.transform((n) => n ?? opts.default),
        ),
    );
  },
  json(description: string, opts: { input?: InputSource[] } = {}): FlagSpec<unknown> {
    return lazy(
      {
        kind: "json",
        description: withInput(description, opts.input),
        placeholder: "json",
        absent: () => undefined,
        ...opts,
      },
      (z) => z.unknown(),
    );
  },
  /** A JSON flag without which the command cannot run: its absence is "--name is required", like any flag. */
  requiredJson(description: string, opts: { input?: InputSource[] } = {}): FlagSpec<unknown> {
    return lazy(
      {
        kind: "json",
        description: withInput(description, opts.input),
        placeholder: "json",
        required: true,
        ...opts,
      },
      (z) => z.unknown().check(z.refine((v) => v !== undefined, "is required")),
    );
  },
};

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Where a write carries the key the suite de-duplicates it on (e.g. IM `uuid` in the body). */
export interface Dedup {
  field: string;
  in: "body" | "query";
}

/** One OpenAPI request, declared as data. `T` is the checked `data` of its response. */
export interface Call<T> {
  method: Method;
  /** `/open-apis/...`, with ids already encoded (`encodeURIComponent`). */
  path: string;
  params?: Query;
  body?: unknown;
  /** What the step is for, shown in the dry run when it is not obvious (lookups, repeated steps). */
  description?: string;
  /**
   * The write's de-duplication field: the pipeline sets the run's key there (`--idempotency-key`, else one
   * generated per invocation) and the HTTP client retries with it. Needs `idempotencyKey: true`.
   */
  dedup?: Dedup;
  /**
   * Sending it twice has the effect of sending it once although it has no key (it is addressed by ids in the
   * request, e.g. an upload part by upload id and sequence number): a lost answer may be retried.
   */
  repeatable?: boolean;
  /**
   * The call only reads though the API spells it as a POST (a lookup or search): a lost answer or a 5xx is
   * retried like any read. A shortcut whose risk is `read` needs no such mark on its calls.
   */
  read?: boolean;
  /** The response's `data`, checked; a mismatch is an `api_error` naming the call. */
  response: z.ZodMiniType<T>;
  /** What stands for the response in the plan, e.g. `{ event: { event_id: "<event_id>" } }`. */
  planned: NoInfer<T>;
}

/** How far `paginate` goes, and where the page token goes. */
export interface PageLimit {
  /** Most pages; 0 = no limit. */
  maxPages: number;
  tokenIn?: "params" | "body";
}

/** A multipart upload of a local file (or a byte range of it), plus text fields. */
export interface UploadCall<T> extends Omit<Call<T>, "method" | "params" | "body"> {
  fields: Record<string, string>;
  file: {
    /** The multipart field holding the file. */
    field: string;
    /** As the user gave it (relative, inside the working directory), and the flag that gave it. */
    path: string;
    flag: string;
    /** The file name sent (default: the local name). */
    name?: string;
    /** Only bytes [start, end) of the file (chunked uploads). */
    range?: [number, number];
    /** Refused locally, before anything is sent, when larger. */
    maxBytes?: number;
  };
}

/** A multipart upload of bytes made in memory (an edited text), plus text fields. */
export interface BytesUploadCall<T> extends Omit<Call<T>, "method" | "params" | "body"> {
  fields: Record<string, string>;
  file: { field: string; name: string; bytes: Uint8Array };
}

export interface DownloadCall {
  path: string;
  params?: Query;
  description?: string;
  /** `--output` as given; undefined: the name `nameOf` finds in the response, else `fallbackName`. */
  output?: string;
  overwrite: boolean;
  nameOf?: (headers: Headers) => string | undefined;
  fallbackName: string;
}

export interface Downloaded {
  /** Relative to the working directory. */
  saved_path: string;
  size_bytes: number;
  content_type?: string;
}

/** A GET whose body is a stored text file (e.g. markdown), read into memory: refused when larger than `maxBytes`. */
export interface TextCall {
  path: string;
  params?: Query;
  description?: string;
  maxBytes: number;
}

/** One tool call on the suite's MCP endpoint. */
export interface McpCall<T> {
  tool: string;
  args: Record<string, unknown>;
  /** The tool changes something (not retried after a lost answer). */
  write: boolean;
  /** Seconds to wait for the answer; each progress notification restarts the wait (`mcpTimeout()`). */
  timeout: number;
  /** A write's read command that shows whether it happened, named when its answer is lost. */
  verify?: string;
  response: z.ZodMiniType<T>;
  planned: NoInfer<T>;
}

/** A local file a shortcut needs to know about before sending it (size, name). */
export interface LocalFile {
  name: string;
  size: number;
}

/** What `run` receives: the resolved flags and identity, and the only ways to act. */
export interface ShortcutContext<F extends FlagSpecs> {
  flags: FlagValues<F>;
  identity: Identity;
  /** The logged-in user's open_id, when the identity is a user and it is known. */
  userOpenId?: string;
  /**
   * The requesting user's open_id whatever the identity (the logged-in user, else the owner of a given user
   * token): a bot run grants them access to what it creates. Undefined when there is no user at all.
   */
  requesterOpenId(): Promise<string | undefined>;
  /** IANA zone for dates given without one and for "today": `TZ`, else the system zone. */
  timeZone: string;
  /** The clock, in ms since the epoch. */
  now(): number;
  /** Waits between polls of a long-running task (the provider's clock; nothing waits in the plan). */
  sleep(ms: number): Promise<void>;
  /** An OpenAPI call as the resolved identity; returns the checked `data`. */
  api<T>(call: Call<T>): Promise<T>;
  /**
   * Every page of a list call (following `page_token` while `has_more`), at most `maxPages` (0 = no limit). The
   * token goes where the API reads it (`tokenIn`, default the query). A stop at the limit while more remain is
   * reported in the result by the pipeline (`meta.truncated`, `meta.page_token`, a `warning:`), never silent.
   */
  paginate<T>(call: Call<T>, opts: PageLimit): Promise<T[]>;
  upload<T>(call: UploadCall<T>): Promise<T>;
  /** `upload` of bytes the shortcut holds (small: they are already in memory). */
  uploadBytes<T>(call: BytesUploadCall<T>): Promise<T>;
  /** Streams the body to a file inside the working directory (refusing to replace one without overwrite). */
  download(call: DownloadCall): Promise<Downloaded>;
  mcp<T>(call: McpCall<T>): Promise<T>;
  /**
   * A text body (UTF-8, at most `maxBytes`) in memory, for shortcuts that compare or edit a stored file;
   * undefined in the dry run, where nothing is fetched (what depends on it is not computed).
   */
  fetchText(call: TextCall): Promise<string | undefined>;
  /** A local UTF-8 text file's content (checked like `localFile`); read in the plan too, nothing is sent. */
  localText(flag: string, path: string, opts: { maxBytes: number }): Promise<string>;
  /** Size and name of a local file given by `flag` (checked to be inside the working directory). */
  localFile(flag: string, path: string, opts?: { maxBytes?: number }): Promise<LocalFile>;
  /** A local file's content as base64url, for APIs that take files inline in JSON. */
  inlineFile(flag: string, path: string, opts?: { maxBytes?: number }): Promise<string>;
  /** Facts the dry run shows beside the requests (e.g. which upload method was chosen). */
  note(facts: Record<string, unknown>): void;
  /** A progress line on a terminal. */
  progress(message: string): Promise<void>;
  /** One progress line rewritten in place on a terminal (a transfer's bytes); no text ends it. */
  status(message?: string): Promise<void>;
  /** The result as the success envelope (JSON; `--jq` applies). */
  out(data: unknown, meta?: Meta): Promise<void>;
  /**
   * The result in the chosen `--format`; `pretty` renders `data` with the given summary, `rows` gives table, csv
   * and ndjson their rows when `data`'s items are not records.
   */
  outFormat(
    data: unknown,
    meta?: Meta,
    pretty?: (data: unknown, columns?: number) => string,
    rows?: (data: unknown) => unknown[],
  ): Promise<void>;
  /**
   * Hands the run to another larkit command line whose output is the result, for a shortcut that is the short
   * form of a streaming command (`event +subscribe` -> `event consume`); the plan shows the command line instead.
   * Counts as the one result (`--jq` is passed on to it); its exit status becomes the run's.
   */
  delegate(argv: string[]): Promise<void>;
}

export interface Shortcut<F extends FlagSpecs = FlagSpecs> {
  service: string;
  /** The command name, starting with `+`. */
  command: `+${string}`;
  /** Older names that run the same shortcut (larkit's earlier name for a task the reference names otherwise). */
  aliases?: `+${string}`[];
  description: string;
  /** Shown under "Examples:" in `--help`. */
  examples: string[];
  risk: Risk;
  /** Identities it can run as, preferred first. */
  authTypes: Identity[];
  /** Scopes the identity's grant must hold; checked locally before any request. */
  scopes: Partial<Record<Identity, string[]>>;
  /** Adds `--format json|pretty|table|csv|ndjson` (read shortcuts always take it). */
  hasFormat: boolean;
  /**
   * The table/csv columns of a list result, most important first (`--columns a,b.c` picks others): dotted
   * paths into an item, or a named value computed from it. Absent: every flattened key.
   */
  columns?: Column[];
  /** Adds `--idempotency-key`: the key its `dedup` calls carry (shown in the dry run and `meta`). */
  idempotencyKey?: boolean;
  flags: F;
  /**
   * The whole shortcut: checks across flags (throw `errors.validation`), the calls in order (later ones may
   * use earlier answers -- the plan sees the `planned` stand-ins), and the result (`ctx.out`/`ctx.outFormat`).
   */
  run(ctx: ShortcutContext<F>): Promise<void>;
}

/** Declares a shortcut with its flag types inferred, for `shortcuts/index.ts`. */
export function defineShortcut<F extends FlagSpecs>(shortcut: Shortcut<F>): Shortcut<F> {
  return shortcut;
}
