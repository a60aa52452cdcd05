/**
 * `larkit api <METHOD> </open-apis/...>`: the raw API layer, for paths no generated command or shortcut covers.
 * Same flags, envelope, retries and errors as generated commands; no registry metadata (so no parameter
 * validation and no scope pre-check): the suite is the judge.
 */
import { type ApiFlagSet, apiOptions } from "../api_commands/flags.ts";
import { runApiCall } from "../api_commands/execute.ts";
import { SUITE_TURN } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import type { Query } from "../http/client.ts";
import { checkApiPath } from "../http/url.ts";
import { errors } from "../output/errors.ts";
import type { Risk } from "../provider.ts";
import type { CommandModule } from "../resolve/declare.ts";
import { attributes, type CommandNode } from "../resolve/node.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export function rawRisk(method: string): Risk {
  if (method === "GET") return "read";
  return method === "DELETE" ? "high-risk-write" : "write";
}

/**
 * `/open-apis/...` only, checked as the suite will decode it (`checkApiPath`). A full suite URL is reduced to
 * its path as written (not as a URL parser would normalise it); one carrying a query string is refused rather
 * than silently trimmed: its parameters belong in --params.
 */
export function normalizeRawPath(raw: string): string {
  let path = raw;
  if (/^https?:\/\//i.test(raw)) {
    path = raw.replace(/^https?:\/\/[^/?#]*/i, "");
    const url = new URL(raw);
    if (url.search || url.hash) {
      throw errors.validation(`the URL's query string would not be sent: ${raw}`, {
        hint: `put it in --params: larkit api <METHOD> ${url.pathname} --params '${
          JSON.stringify(Object.fromEntries(url.searchParams))
        }'`,
      });
    }
  }
  if (!path.startsWith("/open-apis/")) {
    throw errors.validation(`API paths start with /open-apis/: ${raw}`, {
      hint: "e.g. larkit api GET /open-apis/calendar/v4/calendars",
    });
  }
  if (/[?#]/.test(path)) {
    throw errors.validation("put query parameters in --params, not in the path", {
      hint: `larkit api GET ${path.replace(/[?#].*$/, "")} --params '{"key":"value"}'`,
    });
  }
  return checkApiPath(path);
}

function scalarQuery(params: Record<string, unknown>): Query {
  const out: Query = {};
  for (const [k, v] of Object.entries(params)) {
    const ok = (x: unknown) => ["string", "number", "boolean"].includes(typeof x);
    if (!(ok(v) || (Array.isArray(v) && v.every(ok)))) {
      throw errors.validation(`--params ${k} must be a string, number, boolean or a list of them`);
    }
    out[k] = v as Query[string];
  }
  return out;
}

/** `api <method> <path>`: declared as a node, its flags the generated methods' (`apiOptions`). */
function apiNode(parent: CommandNode): CommandNode {
  return {
    name: "api",
    aliases: [],
    description: "call any suite OpenAPI path directly: larkit api GET /open-apis/...",
    options: apiOptions(RAW_API_FLAGS),
    args: [
      { name: "method", description: `HTTP method: ${METHODS.join(", ")}`, required: true },
      { name: "path", description: "API path starting with /open-apis/", required: true },
    ],
    commands: [],
    parent,
    leaf: true,
    layer: "api",
    turn: SUITE_TURN,
    identities: ["user", "bot"],
    risk: "write",
    dryRun: true,
    pagination: true,
    run: (ctx, line) => runRawApi(ctx, line.args[0], line.args[1], attributes(line.values)),
  };
}

export const apiCommands: CommandModule = { groups: [], commands: [], nodes: [apiNode] };

/** The flags `api` takes: the generated methods' set with a body, a file and `--yes`. */
export const RAW_API_FLAGS: ApiFlagSet = { body: true, file: true, yes: true };

/**
 * A full URL is sent to the configured base, never to the host it names: one naming another host is refused
 * rather than silently rebased (the token would go where the caller did not point it, or not where they did).
 */
async function sameHost(ctx: RunContext, raw: string): Promise<void> {
  const open = new URL((await ctx.credentials().account()).endpoints.open);
  const given = new URL(raw);
  if (given.host.toLowerCase() === open.host.toLowerCase()) return;
  throw errors.validation(`the URL's host ${given.host} is not the configured API host ${open.host}`, {
    hint: `pass the path alone (larkit api <METHOD> ${given.pathname}), or switch the brand / base URL`,
  });
}

/** `larkit api <method> <path>` with its options object (`pageAll`, `dryRun`, ...). */
export async function runRawApi(
  ctx: RunContext,
  methodArg: string,
  pathArg: string,
  opts: Record<string, unknown>,
): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!METHODS.includes(method)) {
    throw errors.validation(`unknown HTTP method: ${methodArg}`, {
      hint: `use one of: ${METHODS.join(", ")}`,
    });
  }
  const path = normalizeRawPath(pathArg);
  if (/^https?:\/\//i.test(pathArg)) await sameHost(ctx, pathArg);
  await runApiCall(ctx, {
    command: ["api", method],
    identities: ["user", "bot"],
    risk: rawRisk(method),
    scopes: [],
    requiredScopes: [],
    fileField: "file",
    build: (params, data) => {
      if (method === "GET" && data !== undefined) {
        throw errors.validation("GET requests take no --data", { hint: "put parameters in --params" });
      }
      return { method, path, query: scalarQuery(params), body: data };
    },
    // A write without a key whose answer was lost: the GET of the same path (the collection a POST adds to, the
    // object a PATCH or DELETE addressed) with the same parameters shows whether it happened.
    verify: method === "GET"
      ? undefined
      : (params) =>
        `larkit api GET ${path}${Object.keys(params).length ? ` --params '${JSON.stringify(params)}'` : ""}`,
  }, opts);
}
