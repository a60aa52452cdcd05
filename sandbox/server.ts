/**
 * The suite emulator: one loopback origin serving the open API (`/open-apis/...`), the accounts device flow
 * (`/oauth/v1/...`), MCP (`/mcp`), the registry metadata and the emulator-only `/emulator/...` pages. Each
 * request is logged, passed through the fault switches, authenticated and scope-checked, then handled.
 */
import type { DatabaseSync } from "node:sqlite";
import {
  authenticate,
  type Caller,
  checkScopes,
  decideDevice,
  expireTokens,
  setScopes,
  type TokenKind,
} from "./auth.ts";
import { openDatabase } from "./db.ts";
import { type FileStore, migrateInlineBytes, openFileStore } from "./file_store.ts";
import {
  cutBodyResponse,
  droppedResponse,
  FaultBoard,
  type FaultSwitches,
  rateLimitedResponse,
  serverErrorResponse,
} from "./faults.ts";
import { isSeeded, seedApp, seedFixtures } from "./fixtures.ts";
import { fail, isReply, render, type Reply, ReplyError } from "./reply.ts";
import { describeBody, redactHeaders, type RequestLogEntry } from "./request_log.ts";
import { compile, type CompiledRoute, match, type RequestCtx, type Route } from "./router.ts";
import { type CheckOptions, checkRequest } from "./request_check.ts";
import type { ApiMethod } from "../registry/method.ts";
import { type EmulatorClock, type EmulatorState, SANDBOX_APP } from "./state.ts";
import { authRoutes } from "./routes/auth.ts";
import { emulatorRoutes } from "./routes/emulator.ts";
import { calendarRoutes } from "./routes/calendar.ts";
import { imRoutes } from "./routes/im.ts";
import { imChatRoutes } from "./routes/im_chats.ts";
import { docsRoutes } from "./routes/docs.ts";
import { docCoverRoutes } from "./routes/doc_cover.ts";
import { driveRoutes } from "./routes/drive.ts";
import { docTaskRoutes } from "./routes/doc_tasks.ts";
import { sheetsRoutes } from "./routes/sheets.ts";
import { baseRoutes } from "./routes/base.ts";
import { baseRecordGetRoutes } from "./routes/base_record_get.ts";
import { taskRoutes } from "./routes/task.ts";
import { okrRoutes } from "./routes/okr.ts";
import { vcRoutes } from "./routes/vc.ts";
import { contactRoutes } from "./routes/contact.ts";
import { mailRoutes } from "./routes/mail.ts";
import { mailDraftRoutes } from "./routes/mail_drafts.ts";
import { registryRoutes } from "./routes/registry.ts";
import { mcpRoutes } from "./mcp.ts";

/**
 * The generic handler (and the registry behind it) loads on the first `/open-apis/` request. Its specifier is
 * not a literal, so it stays out of the graph of every run that merely can start the emulator; `deno task
 * compile` embeds it with `--include`.
 */
const GENERIC = "./generic.ts";
let genericModule: Promise<typeof import("./generic.ts")> | undefined;
const generic = () => genericModule ??= import(GENERIC);
import { attachEvents, type EmulatorEvents, eventRoutes, SOCKET_PATH } from "./events/push.ts";

export type { FaultSwitches } from "./faults.ts";
export type { RequestLogEntry } from "./request_log.ts";

export interface EmulatorOptions {
  /** 0 (a free port) by default. */
  port?: number;
  /** Keep state in `<dataDir>/sandbox.db` and stored files under `<dataDir>/files`; in memory (files in a
   * temporary directory) when absent. */
  dataDir?: string;
  /** Seed fixtures into an empty database; default true. */
  seed?: boolean;
  clock?: EmulatorClock;
  /** The zone fixtures' "today" is computed in; default "UTC". */
  timeZone?: string;
  /**
   * Ignore request fields a method does not declare, as the suite does (default: refuse them with 99992402,
   * so a misspelt field shows); missing and mistyped fields are refused either way.
   */
  lenientFields?: boolean;
}

export interface Emulator {
  url: string;
  app: { appId: string; appSecret: string };
  faults: FaultSwitches;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  /** Emulator-only: approve a pending device code (user code or device code). */
  approveDevice(code: string, opts?: { userOpenId?: string; scopes?: string[] }): void;
  denyDevice(code: string): void;
  grantScopes(kind: TokenKind, scopes: string[]): void;
  revokeScopes(kind: TokenKind, scopes: string[]): void;
  expireTokens(kind?: TokenKind | "all"): void;
  /** The registry overlay served at `/api/tools/open/api_definition`; "corrupt" serves invalid JSON. */
  setOverlay(overlay: unknown | "corrupt"): void;
  /** The recommended-scopes document served at `/api/tools/open/scopes.json`; "corrupt" serves invalid JSON. */
  setScopeDocument(doc: unknown | "corrupt"): void;
  /** The event long connection: publish events, fault switches (drop the socket, lose acks, split payloads). */
  events: EmulatorEvents;
  db: DatabaseSync;
  /** The bytes of stored files, on disk. */
  files: FileStore;
  stop(): Promise<void>;
}

const ROUTES: CompiledRoute[] = compile([
  ...authRoutes,
  ...emulatorRoutes,
  ...calendarRoutes,
  ...imRoutes,
  ...imChatRoutes,
  ...mcpRoutes,
  ...docsRoutes,
  ...docCoverRoutes,
  ...driveRoutes,
  ...docTaskRoutes,
  ...sheetsRoutes,
  ...baseRoutes,
  ...baseRecordGetRoutes,
  ...taskRoutes,
  ...okrRoutes,
  ...vcRoutes,
  ...contactRoutes,
  ...mailRoutes,
  ...mailDraftRoutes,
  ...registryRoutes,
  ...eventRoutes,
]);

/** The hand-written routes' methods and paths (`:param` placeholders), for tests. */
export function handWrittenRoutes(): { method: string; path: string }[] {
  return ROUTES.map(({ route }) => ({ method: route.method, path: route.path }));
}

/** Whether a hand-written route serves this request (else the generic handler does, for registry methods). */
export function hasHandWrittenRoute(method: string, path: string): boolean {
  return match(ROUTES, method, path).kind === "found";
}

function notFoundReply(path: string): Reply {
  return fail(404, 404, `404 page not found: ${path}`);
}

function wrongIdentity(kind: TokenKind): Reply {
  return kind === "tenant"
    ? fail(400, 99991668, "This API accepts a user access token only; a tenant access token was sent.")
    : fail(400, 99991663, "This API accepts a tenant access token only; a user access token was sent.");
}

/**
 * Hand-written route first; else the registry method the path names, served by the generic handler. Either
 * way: authenticate and scope-check, then check the request against the registry's request schema (every
 * request whose method the registry knows, `request_check.ts`), then handle.
 */
async function dispatch(ctx: RequestCtx, check: CheckOptions): Promise<Reply> {
  const found = match(ROUTES, ctx.req.method, ctx.url.pathname);
  const api = ctx.url.pathname.startsWith("/open-apis/")
    ? await (await generic()).findApiMethod(ctx.req.method, ctx.url.pathname)
    : { pathKnown: false };
  if (found.kind !== "found" && !api.found) {
    return found.kind === "method_not_allowed" || api.pathKnown
      ? fail(405, 405, `method ${ctx.req.method} not allowed`)
      : notFoundReply(ctx.url.pathname);
  }
  try {
    const gate = found.kind === "found" ? routeGate(found.route) : methodGate(api.found!.method);
    let caller: Caller | undefined;
    if (gate) {
      const who = authenticate(ctx.st, ctx.req.headers.get("authorization"));
      if (isReply(who)) return who;
      if (!gate.identities.includes(who.kind)) return wrongIdentity(who.kind);
      const denied = checkScopes(who, gate.scopes(who.kind));
      if (denied) return denied;
      caller = who;
    }
    if (api.found) await checkRequest(ctx, api.found, check);
    if (found.kind !== "found") {
      return await (await generic()).genericHandle({ ...ctx, params: api.found!.params }, api.found!);
    }
    const { route, params } = found;
    if (route.auth === "none") return await route.handle({ ...ctx, params });
    return await route.handle({ ...ctx, params, caller: caller! });
  } catch (e) {
    if (e instanceof ReplyError) return e.reply;
    return fail(500, 1, `internal error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

interface Gate {
  identities: TokenKind[];
  scopes(kind: TokenKind): string[];
}

/** What a hand-written route requires of its caller; none for an unauthenticated route. */
function routeGate(route: Route): Gate | undefined {
  if (route.auth === "none") return undefined;
  const { scopes } = route;
  return {
    identities: route.identities ?? ["tenant", "user"],
    scopes: (kind) => Array.isArray(scopes) ? scopes : scopes[kind],
  };
}

/** What a registry method without a hand-written route requires: its identities and scopes. */
function methodGate(method: ApiMethod): Gate | undefined {
  if (!method.identities.length) return undefined;
  return {
    identities: method.identities.map((i) => i === "bot" ? "tenant" : "user"),
    scopes: () => method.scopes,
  };
}

/** Starts listening before it resolves; a busy port or unreadable data dir rejects. */
export function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  try {
    return Promise.resolve(start(opts));
  } catch (e) {
    return Promise.reject(e);
  }
}

function start(opts: EmulatorOptions): Emulator {
  const clock = opts.clock ?? { now: () => Date.now() };
  const db = openDatabase(opts.dataDir);
  const files = openFileStore(opts.dataDir);
  migrateInlineBytes(db, files);
  seedApp(db, SANDBOX_APP);
  if ((opts.seed ?? true) && !isSeeded(db)) {
    seedFixtures(db, files, SANDBOX_APP, clock.now(), opts.timeZone ?? "UTC");
  }

  const st: EmulatorState = {
    db,
    files,
    clock,
    timeZone: opts.timeZone ?? "UTC",
    app: SANDBOX_APP,
    origin: "",
    overlay: undefined,
    scopeDocument: undefined,
    lenientFields: opts.lenientFields ?? false,
  };
  const faults = new FaultBoard();
  const check: CheckOptions = { lenientFields: st.lenientFields };
  const events = attachEvents(st);
  let log: RequestLogEntry[] = [];
  let logCounter = 0;
  const shutdown = new AbortController();

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname === SOCKET_PATH) return events.upgrade(req, url);
    const bytes = new Uint8Array(await req.arrayBuffer());
    const logId = `2026${(++logCounter).toString(16).padStart(12, "0")}sandbox`;
    const entry: RequestLogEntry = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: redactHeaders(req.headers),
      body: await describeBody(req.headers, url, bytes),
      status: 0,
      at: clock.now(),
    };
    log.push(entry);

    const delay = faults.delayFor(url.pathname);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const fault = faults.take(url.pathname);
    if (fault?.kind === "rateLimit") {
      entry.status = 429;
      return rateLimitedResponse(fault.retryAfterSeconds, logId);
    }
    if (fault?.kind === "serverError") {
      entry.status = fault.status;
      return serverErrorResponse(fault.status, logId, fault.retryAfterSeconds);
    }
    if (fault?.kind === "dropConnection" && fault.after === "before-handling") return droppedResponse(logId);

    const reply = await dispatch({ st, req, url, params: {}, query: url.searchParams, bytes, logId }, check);
    // The state changed even when the response is then lost, so the event goes out either way.
    events.observe(req.method, url.pathname, reply);
    if (fault?.kind === "dropConnection") return droppedResponse(logId);
    entry.status = reply.status;
    if (fault?.kind === "cutBody") return cutBodyResponse(render(reply, logId), fault.afterBytes);
    return render(reply, logId);
  }

  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: opts.port ?? 0,
      signal: shutdown.signal,
      onListen: () => {},
      // A client that hangs up mid-body is its own business; the emulator stays quiet and serves the next one.
      onError: () => new Response(null, { status: 500 }),
    },
    handle,
  );
  st.origin = `http://127.0.0.1:${server.addr.port}`;

  return {
    url: st.origin,
    app: { appId: SANDBOX_APP.appId, appSecret: SANDBOX_APP.appSecret },
    faults,
    requests: () => log.slice(),
    clearRequests: () => {
      log = [];
    },
    approveDevice(code, o = {}) {
      if (!decideDevice(st, code, { approve: true, userOpenId: o.userOpenId, scopes: o.scopes })) {
        throw new Error(`emulator: no pending device code ${code} (or unknown user ${o.userOpenId})`);
      }
    },
    denyDevice(code) {
      if (!decideDevice(st, code, { approve: false })) {
        throw new Error(`emulator: no pending device code ${code}`);
      }
    },
    grantScopes: (kind, scopes) => setScopes(st, kind, scopes, true),
    revokeScopes: (kind, scopes) => setScopes(st, kind, scopes, false),
    expireTokens: (kind = "all") => expireTokens(st, kind),
    setOverlay(overlay) {
      st.overlay = overlay;
    },
    setScopeDocument(doc) {
      st.scopeDocument = doc;
    },
    events,
    db,
    files,
    async stop() {
      events.dropSocket();
      shutdown.abort();
      await server.finished;
      db.close();
      files.close();
    },
  };
}
