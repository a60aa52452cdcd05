/**
 * The token broker for sandboxed agents (issue 36): `larkit auth serve --socket PATH` holds the credentials
 * (app secret, refresh tokens) and answers, over a unix socket, one access token per request; a larkit run
 * with `LARKIT_AUTH_BROKER=unix:PATH` asks it instead of reading any credential of its own, so the sandbox
 * it runs in needs no secret on its filesystem: the most it can lose is an access token that expires.
 *
 * Before each grant the broker checks its policy (`--allow-service`, `--read-only`) on the method the request
 * resolves to (its API service and risk, from the registry), logs the grant or the refusal on its stderr, and
 * answers a refusal as a `permission` error naming the policy. The socket is made 0600 right after bind,
 * whatever the umask, and checked: anyone else on the machine would otherwise get tokens.
 *
 * Protocol: one connection per question, one JSON line each way: `{"op":"account"}` or
 * `{"op":"token","identity":"user","method":"GET","path":"/open-apis/..."}`, answered by `{"ok":true,...}` or
 * `{"ok":false,"error":{subtype,message,hint}}`.
 */
import * as z from "zod";
import type { Endpoints } from "../config/endpoints.ts";
import { lineReader } from "../line_reader.ts";
import { ERROR_SUBTYPES, errors, type ErrorSubtype, LarkitError, larkitError } from "../output/errors.ts";
import type { Provider, Risk } from "../provider.ts";
import type {
  AccessToken,
  Account,
  CredentialChain,
  CredentialProvider,
  CredentialSource,
  Identity,
  TokenRequest,
} from "./types.ts";

export const BROKER_VARIABLE = "LARKIT_AUTH_BROKER";
/** A question or an answer is a few hundred bytes; a peer sending more is not a larkit. */
const MAX_LINE = 65_536;

const IdentitySchema = z.enum(["user", "bot"]);

const QuestionSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("account") }),
  z.object({
    op: z.literal("token"),
    identity: IdentitySchema,
    method: z.optional(z.string()),
    path: z.optional(z.string()),
  }),
]);
type Question = z.infer<typeof QuestionSchema>;

const FailureSchema = z.object({
  ok: z.literal(false),
  error: z.object({ subtype: z.string(), message: z.string(), hint: z.optional(z.string()) }),
});

const AccountAnswerSchema = z.union([
  z.object({
    ok: z.literal(true),
    account: z.object({
      source: z.string(),
      profile: z.optional(z.string()),
      appId: z.optional(z.string()),
      brand: z.enum(["feishu", "lark", "custom"]),
      endpoints: z.object({ open: z.string(), accounts: z.string(), mcp: z.string() }),
      defaultAs: z.optional(z.enum(["user", "bot", "auto"])),
      strictMode: z.enum(["bot", "user", "off"]),
      user: z.optional(z.object({ openId: z.string(), name: z.optional(z.string()) })),
    }),
    identities: z.array(IdentitySchema),
    scopes: z.object({ user: z.optional(z.array(z.string())), bot: z.optional(z.array(z.string())) }),
  }),
  FailureSchema,
]);

const TokenAnswerSchema = z.union([
  z.object({
    ok: z.literal(true),
    token: z.string(),
    identity: IdentitySchema,
    expires_at: z.optional(z.number()),
    scopes: z.optional(z.array(z.string())),
  }),
  FailureSchema,
]);

/** `unix:/path/to/socket`, the only transport; anything else is a `config` error naming the variable. */
export function brokerSocketPath(value: string): string {
  if (!value.startsWith("unix:") || value.length <= "unix:".length) {
    throw errors.config(`${BROKER_VARIABLE} must be unix:<socket path>, not "${value}"`, {
      hint: `start a broker with larkit auth serve --socket <path>, then ${BROKER_VARIABLE}=unix:<path>`,
    });
  }
  return value.slice("unix:".length);
}

function failure(e: unknown): z.infer<typeof FailureSchema> {
  const err = e instanceof LarkitError ? e : errors.internal(e instanceof Error ? e.message : String(e));
  return { ok: false, error: { subtype: err.subtype, message: err.message, hint: err.hint } };
}

function fromFailure(f: z.infer<typeof FailureSchema>): LarkitError {
  const subtype = (f.error.subtype in ERROR_SUBTYPES ? f.error.subtype : "internal") as ErrorSubtype;
  return larkitError(subtype, `token broker: ${f.error.message}`, { hint: f.error.hint });
}

// ---- client -----------------------------------------------------------------------------------------------

async function ask(path: string, question: Question): Promise<unknown> {
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path });
  } catch (e) {
    throw errors.auth(`the token broker at ${path} does not answer (${(e as Error).message})`, {
      hint:
        `start it: larkit auth serve --socket ${path}; or unset ${BROKER_VARIABLE} to use this machine's ` +
        "own credentials",
    });
  }
  try {
    await conn.write(new TextEncoder().encode(JSON.stringify(question) + "\n"));
    const reader = conn.readable.pipeThrough(new TextDecoderStream()).getReader();
    const line = await lineReader(() => reader.read())(MAX_LINE);
    if (line === null || line.length > MAX_LINE) throw new Error("no answer line");
    return JSON.parse(line);
  } catch (e) {
    if (e instanceof LarkitError) throw e;
    throw errors.auth(`the token broker at ${path} answered nothing usable (${(e as Error).message})`, {
      hint: "check the broker's log on its stderr",
    });
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed by the broker after its answer.
    }
  }
}

/**
 * Credentials from a broker: the account it serves, and a token per request, never cached (the broker decides
 * each one). No app secret and no refresh token ever reach this process.
 */
export function brokerProvider(path: string): CredentialProvider {
  return {
    name: "broker",
    async resolve(): Promise<CredentialSource> {
      const parsed = AccountAnswerSchema.safeParse(await ask(path, { op: "account" }));
      if (!parsed.success) throw errors.auth(`the token broker at ${path} answered an unknown shape`);
      const answer = parsed.data;
      if (!answer.ok) throw fromFailure(answer);
      const account: Account = {
        ...answer.account,
        source: `broker:${path}`,
        endpoints: answer.account.endpoints as Endpoints,
      };
      return {
        account,
        perRequest: true,
        identities: () => Promise.resolve(answer.identities),
        grantedScopes: (identity) => Promise.resolve(answer.scopes[identity]),
        async token(identity: Identity, _signal?: AbortSignal, request?: TokenRequest): Promise<AccessToken> {
          const got = TokenAnswerSchema.safeParse(
            await ask(path, { op: "token", identity, method: request?.method, path: request?.path }),
          );
          if (!got.success) throw errors.auth(`the token broker at ${path} answered an unknown shape`);
          if (!got.data.ok) throw fromFailure(got.data);
          return { identity, token: got.data.token, expiresAt: got.data.expires_at, scopes: got.data.scopes };
        },
      };
    },
  };
}

// ---- broker -----------------------------------------------------------------------------------------------

export interface BrokerPolicy {
  /** API services (the `/open-apis/<service>/` of a path) tokens may be used for; undefined: any. */
  services?: string[];
  /** Only methods whose risk is `read`. */
  readOnly: boolean;
}

export interface ResolvedRequest {
  service?: string;
  risk: Risk;
  /** The registry method it resolved to (`calendar.events.list`), when one matched. */
  method?: string;
}

export interface BrokerOptions {
  p: Provider;
  socketPath: string;
  chain: CredentialChain;
  policy: BrokerPolicy;
  /** What a request addresses: its API service and risk (the command wires in the registry). */
  resolve(method: string, path: string): Promise<ResolvedRequest>;
  /** One line per grant or refusal, on the broker's stderr. */
  log(line: string): Promise<void>;
  /** Called once the socket listens, 0600. */
  listening?(): Promise<void>;
}

export function describePolicy(policy: BrokerPolicy): string {
  const parts = [
    policy.services ? `--allow-service ${policy.services.join(",")}` : "any service",
    ...(policy.readOnly ? ["--read-only"] : []),
  ];
  return parts.join(" ");
}

/** The policy's verdict on a request: undefined when allowed, else why not. */
export function refusal(policy: BrokerPolicy, r: ResolvedRequest | undefined): string | undefined {
  if (!r) {
    return policy.services || policy.readOnly
      ? "the token was asked for without a request to check, and the policy restricts requests"
      : undefined;
  }
  if (policy.services && !(r.service && policy.services.includes(r.service))) {
    return `service ${r.service ?? "(none)"} is not allowed`;
  }
  if (policy.readOnly && r.risk !== "read") return `it is a ${r.risk}, and only reads are allowed`;
  return undefined;
}

async function makePrivateSocket(path: string): Promise<Deno.Listener> {
  try {
    (await Deno.connect({ transport: "unix", path })).close();
    throw errors.config(`a process already answers on ${path}`, {
      hint: "stop that broker first, or give another --socket",
    });
  } catch (e) {
    if (e instanceof LarkitError) throw e;
  }
  try {
    const info = await Deno.lstat(path);
    if (!info.isSocket) {
      throw errors.validation(`${path} exists and is not a socket`, { hint: "give another --socket path" });
    }
    await Deno.remove(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const listener = Deno.listen({ transport: "unix", path });
  // Explicitly, whatever the umask left: only this user may ask for tokens. Then checked, not assumed.
  await Deno.chmod(path, 0o600);
  const mode = (await Deno.stat(path)).mode;
  if (mode === null || (mode & 0o777) !== 0o600) {
    listener.close();
    await Deno.remove(path);
    throw errors.permission(`the broker socket ${path} could not be made 0600`, {
      hint: "put the socket in a directory on a file system that keeps unix permissions",
    });
  }
  return listener;
}

async function answer(o: BrokerOptions, q: Question): Promise<unknown> {
  if (q.op === "account") {
    const account = await o.chain.account();
    return {
      ok: true,
      account: { ...account },
      identities: await o.chain.identities(),
      scopes: { user: await o.chain.grantedScopes("user"), bot: await o.chain.grantedScopes("bot") },
    };
  }
  const request = q.method && q.path ? `${q.method} ${q.path}` : "(no request)";
  const resolved = q.method && q.path ? await o.resolve(q.method, q.path) : undefined;
  const what = resolved
    ? `${request} (${[resolved.method ?? resolved.service ?? "unknown", resolved.risk].join(", ")})`
    : request;
  const refused = refusal(o.policy, resolved);
  if (refused) {
    await o.log(`refused ${q.identity} token for ${what}: ${refused}`);
    throw errors.permission(
      `the token broker's policy (${describePolicy(o.policy)}) refuses ${what}: ${refused}`,
      {
        hint: "run it outside the sandbox, or ask whoever started the broker to widen its policy",
        detail: { policy: o.policy, request: { method: q.method, path: q.path, ...resolved } },
      },
    );
  }
  const token = await o.chain.token(q.identity, o.p.signal);
  await o.log(`granted ${q.identity} token for ${what}`);
  return {
    ok: true,
    token: token.token,
    identity: token.identity,
    expires_at: token.expiresAt,
    scopes: token.scopes,
  };
}

async function serveOne(o: BrokerOptions, conn: Deno.Conn): Promise<void> {
  try {
    const reader = conn.readable.pipeThrough(new TextDecoderStream()).getReader();
    const line = await lineReader(() => reader.read())(MAX_LINE);
    let reply: unknown;
    try {
      if (line === null || line.length > MAX_LINE) throw errors.validation("no question, or one too long");
      const q = QuestionSchema.safeParse(JSON.parse(line));
      if (!q.success) throw errors.validation("the question has an unknown shape");
      reply = await answer(o, q.data);
    } catch (e) {
      reply = failure(e);
    }
    await conn.write(new TextEncoder().encode(JSON.stringify(reply) + "\n"));
  } catch {
    // The asker went away; nothing to answer.
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  }
}

/** Serves until the run's signal aborts (Ctrl-C), then removes the socket. */
export async function serveBroker(o: BrokerOptions): Promise<void> {
  const listener = await makePrivateSocket(o.socketPath);
  const stop = () => listener.close();
  o.p.signal.addEventListener("abort", stop, { once: true });
  try {
    await o.listening?.();
    for await (const conn of listener) void serveOne(o, conn);
  } catch (e) {
    if (!o.p.signal.aborted) throw e;
  } finally {
    o.p.signal.removeEventListener("abort", stop);
    await Deno.remove(o.socketPath).catch(() => {});
  }
}
