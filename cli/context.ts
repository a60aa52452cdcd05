/**
 * Per-run context handed to every command: the provider, the global flags, diagnostics, and the lazily built
 * services (credential chain, HTTP client) — built once per run, only when a command needs them.
 */
import { createCredentialChain } from "./auth/chain.ts";
import type { CredentialChain } from "./auth/types.ts";
import { createHttpClient, type HttpClient } from "./http/client.ts";
import { type Diagnostics, diagnostics } from "./output/diagnostics.ts";
import type { Identity } from "./output/envelope.ts";
import type { Provider } from "./provider.ts";

export interface Globals {
  profile?: string;
  debug: boolean;
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
  /** Work that must not delay the result (registry overlay refresh); awaited after the command finished. */
  background?: Promise<void>[];
}

export interface RunContext {
  /** The argv of this run, as given (after the program name). */
  argv: string[];
  p: Provider;
  globals: Globals;
  diag: Diagnostics;
  state: RunState;
  credentials(): CredentialChain;
  http(): HttpClient;
}

export function createRunContext(p: Provider, globals: Globals, argv: string[] = []): RunContext {
  const diag = diagnostics(p.stderr, { debug: globals.debug, color: globals.color });
  let chain: CredentialChain | undefined;
  let http: HttpClient | undefined;
  const ctx: RunContext = {
    argv,
    p,
    globals,
    diag,
    state: {},
    credentials: () =>
      chain ??= createCredentialChain(p, {
        profile: globals.profile,
        diag,
        send: (url, init, opts) => ctx.http().send(url, init, opts),
      }),
    http: () => http ??= createHttpClient({ p, credentials: ctx.credentials(), diag, argv }),
  };
  return ctx;
}
