/**
 * Per-run context handed to every command: the provider, the global flags, diagnostics, and the lazily built
 * services (credential chain, HTTP client) -- built once per run, only when a command needs them.
 */
import { lazy } from "./lazy.ts";
import type { CommandGate } from "./command_meta.ts";
import type { CredentialChain } from "./auth/types.ts";
import type { ApiRequest, HttpClient } from "./http/client.ts";
import { type Diagnostics, diagnostics } from "./output/diagnostics.ts";
import { errors } from "./output/errors.ts";
import type { Identity } from "./output/envelope.ts";
import type { Provider } from "./provider.ts";

export interface Globals {
  profile?: string;
  /** `--user` / LARKIT_USER: the logged-in user (name or open_id) the user identity acts for. */
  user?: string;
  debug: boolean;
  /** `--quiet`: no progress on stderr. */
  quiet?: boolean;
  color: boolean;
  offline: boolean;
  /** `--record <dir>` / LARKIT_RECORD: append every exchange of this run there. */
  record?: string;
  /** `--replay <dir>` / LARKIT_REPLAY: serve responses from that recording, no network. */
  replay?: string;
}

export interface RunState {
  /** The identity the command resolved; echoed in the envelope, success or error. */
  identity?: Identity;
  /** Set by commands that already wrote their result but must still exit non-zero (doctor, auth check). */
  exitCode?: number;
}

/**
 * What `cli/run.ts` hands down so commands can run another argv (`sandbox run`, the agent server's turns)
 * without importing the modules that import them.
 */
export interface RunHooks {
  /** With a gate (an agent-server turn), the resolved command is checked before it runs. */
  run(argv: string[], p: Provider, opts?: { gate?: CommandGate }): Promise<number>;
}

const NO_HOOKS: RunHooks = {
  run: () => Promise.reject(errors.internal("this context cannot run commands")),
};

export interface RunContext {
  /** The argv of this run, as given (after the program name). */
  argv: string[];
  p: Provider;
  globals: Globals;
  diag: Diagnostics;
  state: RunState;
  credentials(): CredentialChain;
  http(): HttpClient;
  hooks: RunHooks;
}

/**
 * The credential chain and the HTTP client, with their modules (config, token stores, zod schemas) loaded on
 * the first call that needs them: a run that never asks for a token or sends a request never loads them.
 */
function deferredChain(make: () => Promise<CredentialChain>): CredentialChain {
  let chain: Promise<CredentialChain> | undefined;
  const get = () => chain ??= make();
  return {
    account: async () => (await get()).account(),
    token: async (identity, signal, request) => (await get()).token(identity, signal, request),
    identities: async () => (await get()).identities(),
    grantedScopes: async (identity) => (await get()).grantedScopes(identity),
    invalidate: async (identity, token, signal) => {
      const c = await get();
      return c.invalidate ? await c.invalidate(identity, token, signal) : false;
    },
    appSecret: async () => {
      const c = await get();
      if (!c.appSecret) throw errors.internal("this credential chain cannot give the app secret");
      return await c.appSecret();
    },
  };
}

function deferredHttp(make: () => Promise<HttpClient>): HttpClient {
  let client: Promise<HttpClient> | undefined;
  const get = () => client ??= make();
  return {
    send: async (url, init, opts) => (await get()).send(url, init, opts),
    call: async <T>(req: ApiRequest) => (await get()).call<T>(req),
    raw: async (req) => (await get()).raw(req),
    url: async (path, query) => (await get()).url(path, query),
  };
}

export function createRunContext(
  p: Provider,
  globals: Globals,
  argv: string[] = [],
  hooks: RunHooks = NO_HOOKS,
): RunContext {
  const diag = diagnostics(p.stderr, { debug: globals.debug, color: globals.color, quiet: globals.quiet });
  let chain: CredentialChain | undefined;
  let http: HttpClient | undefined;
  const ctx: RunContext = {
    argv,
    p,
    globals,
    diag,
    state: {},
    hooks,
    credentials: () =>
      chain ??= deferredChain(async () =>
        (await lazy("cli/auth/chain.ts")).createCredentialChain(p, {
          profile: globals.profile,
          user: globals.user,
          freshBotToken: globals.record !== undefined,
          diag,
          send: (url, init, opts) => ctx.http().send(url, init, opts),
        })
      ),
    http: () =>
      http ??= deferredHttp(async () =>
        (await lazy("cli/http/client.ts")).createHttpClient({
          p,
          credentials: ctx.credentials(),
          diag,
          argv,
        })
      ),
  };
  return ctx;
}
