/**
 * The registry's data shapes, as zod schemas: the embedded baseline, the curated overrides, and remote
 * overlays. The file format is a superset of lark-cli's metadata (`{version, services:[{name, servicePath,
 * resources:{r:{methods:{m:{path, httpMethod, parameters, requestBody, accessTokens, scopes, ...}}}}}]}`), so an
 * overlay fetched from the suite's own `api_definition` endpoint validates here unchanged. Unknown fields are
 * kept (`loose`), because newer metadata may carry fields this version does not read yet.
 */
import * as z from "zod";

export const RISKS = ["read", "write", "high-risk-write"] as const;
export type Risk = typeof RISKS[number];
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = typeof HTTP_METHODS[number];

/** One field of a request: a JSON Schema node written the lark-cli way (`required` is a boolean on the field). */
export interface FieldSpec {
  type?: string;
  required?: boolean;
  description?: string;
  descriptionZh?: string;
  enum?: (string | number | boolean)[];
  /** lark-cli spells enums as options: `[{value}]`. */
  options?: { value?: unknown }[];
  properties?: Record<string, FieldSpec>;
  items?: FieldSpec;
  format?: string;
  min?: string | number;
  max?: string | number;
  example?: unknown;
  [extra: string]: unknown;
}

export interface ParameterSpec extends FieldSpec {
  location: "path" | "query";
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const DOTTED_NAME = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$/i;
/** A key that would collide with Object.prototype members when used as a plain-object key. */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function safeRecord<V extends z.ZodMiniType>(pattern: RegExp, value: V, what: string) {
  return z.record(
    z.string().check(
      z.regex(pattern, `invalid ${what} name`),
      z.refine((k) => !RESERVED_KEYS.has(k), `reserved ${what}`),
    ),
    value,
  );
}

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const FieldSpecSchema: z.ZodMiniType<FieldSpec> = z.lazy(() =>
  z.looseObject({
    type: z.optional(z.string().check(z.maxLength(32))),
    required: z.optional(z.boolean()),
    description: z.optional(z.string()),
    descriptionZh: z.optional(z.string()),
    enum: z.optional(z.array(scalar)),
    options: z.optional(z.array(z.looseObject({ value: z.unknown() }))),
    properties: z.optional(z.record(z.string().check(z.maxLength(200)), FieldSpecSchema)),
    items: z.optional(FieldSpecSchema),
    format: z.optional(z.string()),
    min: z.optional(z.union([z.string(), z.number()])),
    max: z.optional(z.union([z.string(), z.number()])),
    example: z.optional(z.unknown()),
  })
);

export const ParameterSpecSchema = z.intersection(
  FieldSpecSchema,
  z.object({ location: z.enum(["path", "query"]) }),
) as unknown as z.ZodMiniType<ParameterSpec>;

/** A relative method path under its service path: no scheme, no `..`, no query or fragment. */
// Control characters in a metadata path are refused by design.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f]/;
const relativePath = z.string().check(
  z.maxLength(500),
  z.refine(
    (p) => !/(^|\/)\.\.(\/|$)|[?#\\]|^[a-z]+:|^\/\//i.test(p) && !CONTROL.test(p),
    "method path must be a plain relative path",
  ),
);

export const MethodSpecSchema = z.looseObject({
  id: z.optional(z.string()),
  path: relativePath,
  httpMethod: z.pipe(z.pipe(z.string(), z.transform((m) => m.toUpperCase())), z.enum(HTTP_METHODS)),
  description: z._default(z.string(), ""),
  descriptionZh: z.optional(z.string()),
  /** A short title for help listings (the description's heading). */
  summary: z.optional(z.string()),
  parameters: z._default(safeRecord(NAME, ParameterSpecSchema, "parameter"), {}),
  requestBody: z.optional(z.record(z.string().check(z.maxLength(200)), FieldSpecSchema)),
  responseBody: z.optional(z.record(z.string().check(z.maxLength(200)), FieldSpecSchema)),
  accessTokens: z.optional(z.array(z.string())),
  scopes: z.optional(z.array(z.string())),
  requiredScopes: z.optional(z.array(z.string())),
  danger: z.optional(z.boolean()),
  risk: z.optional(z.enum(RISKS)),
  /** The query/body field the suite de-duplicates on; a request carrying it may be retried after it was sent. */
  idempotency: z.optional(z.object({ field: z.string(), location: z.enum(["query", "body"]) })),
  docUrl: z.optional(z.string()),
  tips: z.optional(z.array(z.string())),
  sdkName: z.optional(z.string()),
  /** The response field that holds a list method's items (from the response shape, at generation). */
  listField: z.optional(z.string()),
});
export type MethodSpec = z.infer<typeof MethodSpecSchema>;

export const ResourceSpecSchema = z.looseObject({
  methods: safeRecord(NAME, MethodSpecSchema, "method"),
});
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

export const ServiceSpecSchema = z.looseObject({
  name: z.string().check(z.regex(NAME, "invalid service name"), z.refine((n) => !RESERVED_KEYS.has(n))),
  version: z.optional(z.string()),
  versions: z.optional(z.array(z.string())),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  descriptionZh: z.optional(z.string()),
  servicePath: z.string().check(
    z.regex(/^\/open-apis\/[a-z0-9_/-]+$/i, "servicePath must be under /open-apis/"),
    z.refine((p) => !p.split("/").includes(".."), "servicePath must not climb"),
  ),
  resources: safeRecord(DOTTED_NAME, ResourceSpecSchema, "resource"),
});
export type ServiceSpec = z.infer<typeof ServiceSpecSchema>;

/**
 * What running a method reads of it: no description text (`baseline/runnable/<name>/<resource>.json`,
 * `runnable.ts`). Picked, since the specs' loose objects leave nothing to omit.
 */
export type RunnableMethodSpec = Pick<
  MethodSpec,
  | "path"
  | "httpMethod"
  | "parameters"
  | "requestBody"
  | "responseBody"
  | "accessTokens"
  | "scopes"
  | "requiredScopes"
  | "danger"
  | "risk"
  | "idempotency"
  | "docUrl"
  | "tips"
  | "listField"
>;
export interface RunnableService extends Pick<ServiceSpec, "name" | "servicePath"> {
  resources: Record<string, { methods: Record<string, RunnableMethodSpec> }>;
}

export const MetadataSchema = z.looseObject({
  version: z.string(),
  services: z.array(ServiceSpecSchema),
});
export type Metadata = z.infer<typeof MetadataSchema>;

/** The cheap part of the registry: enough for top-level help, completion and strict-mode pruning. */
export const ServiceSummarySchema = z.object({
  name: z.string().check(z.regex(NAME)),
  title: z._default(z.string(), ""),
  description: z._default(z.string(), ""),
  descriptionZh: z.optional(z.string()),
  identities: z.array(z.enum(["user", "bot"])),
  methods: z.number().check(z.int(), z.nonnegative()),
});
export type ServiceSummary = z.infer<typeof ServiceSummarySchema>;

export const RegistryIndexSchema = z.object({
  version: z.string(),
  source: z.optional(z.string()),
  services: z.array(ServiceSummarySchema),
});
export type RegistryIndex = z.infer<typeof RegistryIndexSchema>;

/**
 * The remote endpoint's envelope (lark-cli §9): `data.services === null` means "not modified". Services are
 * kept unparsed here and validated one by one, so one broken service does not discard the others.
 */
export const OverlayResponseSchema = z.looseObject({
  msg: z.optional(z.string()),
  data: z.looseObject({
    version: z.string().check(z.minLength(1), z.maxLength(100)),
    services: z.optional(z.nullable(z.array(z.unknown()))),
  }),
});

/** Curated corrections to the generated baseline: scopes, risk, and the few methods the package lacks. */
export const OverridesSchema = z.strictObject({
  /** Keyed by the package's method name, e.g. `calendar.v4.calendarEvent.instanceView`. */
  methods: z.record(
    z.string(),
    z.strictObject({
      scopes: z.optional(z.array(z.string())),
      requiredScopes: z.optional(z.array(z.string())),
      risk: z.optional(z.enum(RISKS)),
      idempotency: MethodSpecSchema.shape.idempotency,
    }),
  ),
  /** Methods absent from the package (binary upload/download), written in the registry's own method shape. */
  add: z.array(
    z.strictObject({
      name: z.string(),
      path: z.string().check(z.startsWith("/open-apis/")),
      method: z.omit(MethodSpecSchema, { path: true }),
    }),
  ),
});
export type Overrides = z.infer<typeof OverridesSchema>;

/** The overlay's `check.json`: when the endpoint was last asked (successful or not), and which one. */
export const OverlayCheckSchema = z.object({ lastCheckAt: z.number(), url: z.optional(z.string()) });
