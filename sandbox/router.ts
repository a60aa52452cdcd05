/**
 * Routes as data: method, path pattern with `:params`, the scopes the suite requires, and a handler. The server
 * authenticates and scope-checks before a handler runs, so every handler starts from a known caller.
 */
import type { Caller } from "./auth.ts";
import type { Reply } from "./reply.ts";
import type { EmulatorState } from "./state.ts";
import { invalidParam } from "./reply.ts";
import { parseMultipart } from "./multipart.ts";
import type * as z from "zod";

export interface RequestCtx {
  st: EmulatorState;
  req: Request;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The raw request body, read once by the server. */
  bytes: Uint8Array<ArrayBuffer>;
  logId: string;
}

export interface CallerCtx extends RequestCtx {
  caller: Caller;
}

interface RouteBase {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
}

export type Route =
  | RouteBase & { auth: "none"; handle(ctx: RequestCtx): Reply | Promise<Reply> }
  | RouteBase & {
    auth: "token";
    /** Any one of these grants access (per identity when they differ); empty means any valid token. */
    scopes: string[] | Record<"tenant" | "user", string[]>;
    /** Identities the endpoint accepts; both when absent. */
    identities?: ("tenant" | "user")[];
    handle(ctx: CallerCtx): Reply | Promise<Reply>;
  };

export interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

export function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.split("/").map((seg) => {
      if (!seg.startsWith(":")) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(seg.slice(1));
      return "([^/]+)";
    }).join("/");
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
}

export type Match =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "method_not_allowed" }
  | { kind: "none" };

/** First pattern that matches wins, so literal segments (`instance_view`) are listed before `:event_id`. */
export function match(routes: CompiledRoute[], method: string, path: string): Match {
  let pathSeen = false;
  for (const c of routes) {
    const m = c.pattern.exec(path);
    if (!m) continue;
    pathSeen = true;
    if (c.route.method !== method) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => params[n] = decodeURIComponent(m[i + 1]));
    return { kind: "found", route: c.route, params };
  }
  return pathSeen ? { kind: "method_not_allowed" } : { kind: "none" };
}

// ---- body parsing: the suite's 99992402 on anything that does not fit the schema ----

/** The request body as JSON (`{}` when there is none); 99992402 when it is not JSON. */
export function bodyJson(ctx: RequestCtx): unknown {
  try {
    return ctx.bytes.length ? JSON.parse(new TextDecoder().decode(ctx.bytes)) : {};
  } catch {
    return invalidParam("request body is not valid JSON");
  }
}

export function jsonBody<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  const parsed = schema.safeParse(bodyJson(ctx));
  if (!parsed.success) return invalidParam(issueText(parsed.error));
  return parsed.data;
}

export function queryOf<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  const parsed = schema.safeParse(Object.fromEntries(ctx.query));
  if (!parsed.success) return invalidParam(issueText(parsed.error));
  return parsed.data;
}

export function formBody<T extends z.ZodMiniType>(ctx: RequestCtx, schema: T): z.infer<T> {
  const fields = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(ctx.bytes)));
  const parsed = schema.safeParse(fields);
  if (!parsed.success) return invalidParam(issueText(parsed.error));
  return parsed.data;
}

/** Parts with or without a file name: see multipart.ts. */
export function multipartBody(ctx: RequestCtx): FormData {
  try {
    return parseMultipart(ctx.req.headers.get("content-type") ?? "", ctx.bytes);
  } catch {
    return invalidParam("request body is not valid multipart/form-data");
  }
}

function issueText(error: z.$ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
}
