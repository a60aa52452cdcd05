/**
 * What running one generated API command means, apart from how its command line is parsed: the call handed
 * to the executor (`cli/resolve/services.ts` loads it when a method's node runs).
 */
import type { RunContext } from "../context.ts";
import type { RunnableMethod } from "../../registry/index.ts";
import { listFieldOf } from "../../registry/method.ts";
import type { ApiCall } from "./execute.ts";
import { buildRequest } from "./request.ts";

/**
 * The read command that shows whether a lost write took effect: the `get` of the same resource when the write
 * was given all of its path parameters, else its `list`, carrying the path parameters over.
 */
export function verifyCommand(
  m: RunnableMethod,
  siblings: RunnableMethod[],
  params: Record<string, unknown>,
): string | undefined {
  const pathParams = (s: RunnableMethod) =>
    Object.entries(s.parameters).filter(([, spec]) => spec.location === "path").map(([k]) => k);
  const read = ["get", "list"]
    .map((n) => siblings.find((s) => s.resource === m.resource && s.name === n))
    .find((s) => s !== undefined && pathParams(s).every((k) => params[k] !== undefined));
  if (!read) return undefined;
  const carried = Object.fromEntries(pathParams(read).map((k) => [k, params[k]]));
  const args = Object.keys(carried).length ? ` --params '${JSON.stringify(carried)}'` : "";
  return `larkit ${read.service} ${read.resource} ${read.name}${args}`;
}

export function apiCallOf(ctx: RunContext, m: RunnableMethod, siblings: RunnableMethod[] = []): ApiCall {
  return {
    command: [m.service, m.resource, m.name],
    service: m.service,
    identities: m.identities,
    risk: m.risk,
    scopes: m.scopes,
    requiredScopes: m.requiredScopes,
    fileField: m.fileFields.length === 1 ? m.fileFields[0] : "file",
    build: (params, data, opts) =>
      buildRequest(m, params, data, { ...opts, uuid: () => ctx.p.random.uuid() }),
    verify: m.risk !== "read" && !m.idempotency ? (params) => verifyCommand(m, siblings, params) : undefined,
    listField: listFieldOf(m),
  };
}
