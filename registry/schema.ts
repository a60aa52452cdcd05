/**
 * The registry's data shapes, as zod schemas: the embedded baseline, the curated overrides, and remote
 * overlays. The file format is a superset of lark-cli's metadata (`{version, services:[{name, servicePath,
 * resources:{r:{methods:{m:{path, httpMethod, parameters, requestBody, accessTokens, scopes, …}}}}}]}`), so an
 * overlay fetched from the suite's own `api_definition` endpoint validates here unchanged. Unknown fields are
 * kept (`loose`), because newer metadata may carry fields this version does not read yet.
 */
import { z } from "zod";

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

function safeRecord<V extends z.ZodType>(pattern: RegExp, value: V, what: string) {
  return z.record(
    z.string().regex(pattern, `invalid ${what} name`).refine(
      (k) => !RESERVED_KEYS.has(k),
      `reserved ${what}`,
    ),
    value,
  );
}

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const FieldSpecSchema: z.ZodType<FieldSpec> = z.lazy(() =>
  z.object({
    type: z.string().max(32).optional(),
    required: z.boolean().optional(),
    description: z.string().optional(),
    descriptionZh: z.string().optional(),
    enum: z.array(scalar).optional(),
    options: z.array(z.object({ value: z.unknown() }).loose()).optional(),
    properties: z.record(z.string().max(200), FieldSpecSchema).optional(),
    items: FieldSpecSchema.optional(),
    format: z.string().optional(),
    min: z.union([z.string(), z.number()]).optional(),
    max: z.union([z.string(), z.number()]).optional(),
    example: z.unknown().optional(),
  }).loose()
);

export const ParameterSpecSchema = z.intersection(
  FieldSpecSchema,
  z.object({ location: z.enum(["path", "query"]) }),
) as unknown as z.ZodType<ParameterSpec>;

/** A relative method path under its service path: no scheme, no `..`, no query or fragment. */
// Control characters in a metadata path are refused by design.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f]/;
const relativePath = z.string().max(500).refine(
  (p) => !/(^|\/)\.\.(\/|$)|[?#\\]|^[a-z]+:|^\/\//i.test(p) && !CONTROL.test(p),
  "method path must be a plain relative path",
);

export const MethodSpecSchema = z.object({
  id: z.string().optional(),
  path: relativePath,
  httpMethod: z.string().transform((m) => m.toUpperCase()).pipe(z.enum(HTTP_METHODS)),
  description: z.string().default(""),
  descriptionZh: z.string().optional(),
  /** A short title for help listings (the description's heading). */
  summary: z.string().optional(),
  parameters: safeRecord(NAME, ParameterSpecSchema, "parameter").default({}),
  requestBody: z.record(z.string().max(200), FieldSpecSchema).optional(),
  responseBody: z.record(z.string().max(200), FieldSpecSchema).optional(),
  accessTokens: z.array(z.string()).optional(),
  scopes: z.array(z.string()).optional(),
  requiredScopes: z.array(z.string()).optional(),
  danger: z.boolean().optional(),
  risk: z.enum(RISKS).optional(),
  /** The query/body field the suite de-duplicates on; a request carrying it may be retried after it was sent. */
  idempotency: z.object({ field: z.string(), location: z.enum(["query", "body"]) }).optional(),
  docUrl: z.string().optional(),
  tips: z.array(z.string()).optional(),
  sdkName: z.string().optional(),
  /** The response field that holds a list method's items (from the response shape, at generation). */
  listField: z.string().optional(),
}).loose();
export type MethodSpec = z.infer<typeof MethodSpecSchema>;

export const ResourceSpecSchema = z.object({
  methods: safeRecord(NAME, MethodSpecSchema, "method"),
}).loose();
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

export const ServiceSpecSchema = z.object({
  name: z.string().regex(NAME, "invalid service name").refine((n) => !RESERVED_KEYS.has(n)),
  version: z.string().optional(),
  versions: z.array(z.string()).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  descriptionZh: z.string().optional(),
  servicePath: z.string().regex(/^\/open-apis\/[a-z0-9_/-]+$/i, "servicePath must be under /open-apis/")
    .refine((p) => !p.split("/").includes(".."), "servicePath must not climb"),
  resources: safeRecord(DOTTED_NAME, ResourceSpecSchema, "resource"),
}).loose();
export type ServiceSpec = z.infer<typeof ServiceSpecSchema>;

export const MetadataSchema = z.object({
  version: z.string(),
  services: z.array(ServiceSpecSchema),
}).loose();
export type Metadata = z.infer<typeof MetadataSchema>;

/** The cheap part of the registry: enough for top-level help, completion and strict-mode pruning. */
export const ServiceSummarySchema = z.object({
  name: z.string().regex(NAME),
  title: z.string().default(""),
  description: z.string().default(""),
  descriptionZh: z.string().optional(),
  identities: z.array(z.enum(["user", "bot"])),
  methods: z.number().int().nonnegative(),
});
export type ServiceSummary = z.infer<typeof ServiceSummarySchema>;

export const RegistryIndexSchema = z.object({
  version: z.string(),
  source: z.string().optional(),
  services: z.array(ServiceSummarySchema),
});
export type RegistryIndex = z.infer<typeof RegistryIndexSchema>;

/**
 * The remote endpoint's envelope (lark-cli §9): `data.services === null` means "not modified". Services are
 * kept unparsed here and validated one by one, so one broken service does not discard the others.
 */
export const OverlayResponseSchema = z.object({
  msg: z.string().optional(),
  data: z.object({
    version: z.string().min(1).max(100),
    services: z.array(z.unknown()).nullable().optional(),
  }).loose(),
}).loose();

/** Curated corrections to the generated baseline: scopes, risk, and the few methods the package lacks. */
export const OverridesSchema = z.object({
  /** Keyed by the package's method name, e.g. `calendar.v4.calendarEvent.instanceView`. */
  methods: z.record(
    z.string(),
    z.object({
      scopes: z.array(z.string()).optional(),
      requiredScopes: z.array(z.string()).optional(),
      risk: z.enum(RISKS).optional(),
      idempotency: MethodSpecSchema.shape.idempotency,
    }).strict(),
  ),
  /** Methods absent from the package (binary upload/download), written in the registry's own method shape. */
  add: z.array(
    z.object({
      name: z.string(),
      path: z.string().startsWith("/open-apis/"),
      method: MethodSpecSchema.omit({ path: true }),
    }).strict(),
  ),
}).strict();
export type Overrides = z.infer<typeof OverridesSchema>;

/** The overlay's `check.json`: when the endpoint was last asked (successful or not), and which one. */
export const OverlayCheckSchema = z.object({ lastCheckAt: z.number(), url: z.string().optional() });
