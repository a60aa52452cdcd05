/**
 * `larkit auth serve`: the token broker's command side (`cli/auth/broker.ts` is the broker): the policy from
 * the flags, and what a request addresses resolved with the registry, so the policy is checked on the method
 * a request resolves to, not on what the asker says it is.
 */
import { type BrokerPolicy, describePolicy, type ResolvedRequest, serveBroker } from "../auth/broker.ts";
import type { RunContext } from "../context.ts";
import { openRegistry } from "../../registry/index.ts";
import { compileMethod, matchMethod, serviceOfPath } from "../../registry/match.ts";

/** A request's API service (its `/open-apis/<service>/`) and the risk of the registry method it addresses. */
export async function resolveRequest(method: string, path: string): Promise<ResolvedRequest> {
  const service = serviceOfPath(path);
  const upper = method.toUpperCase();
  const methods = service ? await (await openRegistry()).methods(service).catch(() => []) : [];
  const hit = matchMethod(methods.map(compileMethod), upper, path).method?.method;
  if (hit) return { service, risk: hit.risk, method: hit.id };
  // Not in the registry: the HTTP method says as much as can be known.
  return { service, risk: upper === "GET" ? "read" : upper === "DELETE" ? "high-risk-write" : "write" };
}

/** Serves until the run is interrupted; returns the socket's path. */
export async function serveTokens(
  ctx: RunContext,
  flags: { socket: string; allowService?: string[]; readOnly?: boolean },
): Promise<string> {
  const services = flags.allowService?.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
  const policy: BrokerPolicy = { services, readOnly: flags.readOnly === true };
  // Resolved now: a broker with nothing to hand out says so at once, not at the first question.
  const account = await ctx.credentials().account();
  await serveBroker({
    p: ctx.p,
    socketPath: flags.socket,
    chain: ctx.credentials(),
    policy,
    resolve: resolveRequest,
    log: (line) => ctx.diag.info(`broker: ${line}`),
    listening: () =>
      ctx.diag.info(
        `broker: serving ${account.source}${account.profile ? ` (${account.profile})` : ""} on ` +
          `${flags.socket}, policy ${describePolicy(policy)}; LARKIT_AUTH_BROKER=unix:${flags.socket}`,
      ),
  });
  return flags.socket;
}
