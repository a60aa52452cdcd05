/**
 * What a command needs to know about one suite method, derived once from its metadata: full path, identities,
 * risk, scopes, file fields. Risk comes from the HTTP method unless the metadata (or overrides) says otherwise:
 * GET reads, POST/PUT/PATCH write, DELETE is a high-risk write. Pure.
 */
import type {
  FieldSpec,
  HttpMethod,
  MethodSpec,
  ParameterSpec,
  Risk,
  RunnableMethodSpec,
  RunnableService,
  ServiceSpec,
} from "./schema.ts";

export type Identity = "user" | "bot";

export interface ApiMethod {
  service: string;
  resource: string;
  name: string;
  /** `service.resource.method`, the argument of `larkit schema`. */
  id: string;
  httpMethod: HttpMethod;
  /** `/open-apis/...` with `{param}` placeholders. */
  path: string;
  summary: string;
  description: string;
  descriptionZh?: string;
  parameters: Record<string, ParameterSpec>;
  requestBody?: Record<string, FieldSpec>;
  responseBody?: Record<string, FieldSpec>;
  /** Empty: the method takes no access token (app/tenant token endpoints themselves). */
  identities: Identity[];
  risk: Risk;
  scopes: string[];
  requiredScopes: string[];
  idempotency?: MethodSpec["idempotency"];
  /** Body fields of type `file`: such a method accepts `--file field=path` (multipart). */
  fileFields: string[];
  docUrl?: string;
  tips?: string[];
  /** The response field holding the items of a list method (`items`, `members`, ...). */
  listField?: string;
}

/** Where a method's response keeps its list, for table/csv output and `--page-all`; undefined if none. */
export function listFieldOf(m: Pick<ApiMethod, "listField">): string | undefined {
  return m.listField;
}

export function riskOf(m: Pick<MethodSpec, "httpMethod" | "risk" | "danger">): Risk {
  if (m.risk) return m.risk;
  if (m.danger) return "high-risk-write";
  if (m.httpMethod === "GET") return "read";
  return m.httpMethod === "DELETE" ? "high-risk-write" : "write";
}

export function identitiesOf(m: Pick<MethodSpec, "accessTokens">): Identity[] {
  const ids: Identity[] = [];
  if (m.accessTokens?.includes("user")) ids.push("user");
  if (m.accessTokens?.includes("tenant")) ids.push("bot");
  return ids;
}

/** A method as running it needs it: everything but its text (which `toApiMethod` adds). */
export type RunnableMethod = Omit<ApiMethod, "summary" | "description" | "descriptionZh">;

export function toRunnableMethod(
  service: RunnableService,
  resource: string,
  name: string,
  m: RunnableMethodSpec,
): RunnableMethod {
  const path = `${service.servicePath.replace(/\/+$/, "")}/${m.path.replace(/^\/+/, "")}`;
  const method: RunnableMethod = {
    service: service.name,
    resource,
    name,
    id: `${service.name}.${resource}.${name}`,
    httpMethod: m.httpMethod,
    path,
    parameters: m.parameters,
    requestBody: m.requestBody,
    responseBody: m.responseBody,
    identities: identitiesOf(m),
    risk: riskOf(m),
    scopes: m.scopes ?? [],
    requiredScopes: m.requiredScopes ?? [],
    idempotency: m.idempotency,
    fileFields: Object.entries(m.requestBody ?? {}).filter(([, f]) => f.type === "file").map(([k]) => k),
    docUrl: m.docUrl,
    tips: m.tips,
  };
  if (m.listField) method.listField = m.listField;
  return method;
}

export function toApiMethod(service: ServiceSpec, resource: string, name: string, m: MethodSpec): ApiMethod {
  return {
    ...toRunnableMethod(service, resource, name, m),
    summary: m.summary ?? m.description.split(/[.\u3002\n]/)[0],
    description: m.description,
    descriptionZh: m.descriptionZh,
  };
}

/** Every method of a service, in name order. */
export function methodsOf(service: ServiceSpec): ApiMethod[] {
  return Object.keys(service.resources).sort().flatMap((r) =>
    Object.keys(service.resources[r].methods).sort().map((m) =>
      toApiMethod(service, r, m, service.resources[r].methods[m])
    )
  );
}
