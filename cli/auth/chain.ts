/**
 * The credential chain (seed §5.4-5.5): providers are asked in order for an account; the first that answers
 * is the token source for the rest of the run (accounts are never mixed), a provider's error stops the chain
 * at once, and when none answers the run is "not configured".
 *
 * Order: with LARKIT_AUTH_BROKER set, the token broker alone (a sandboxed run has no credentials of its own,
 * and must not fall back to any it finds); else the environment provider (registered at start-up), then the
 * extension providers listed in the config's `credentialProviders`, then the default provider (the selected
 * config profile). The environment comes first because it is set for one run, which is a more specific wish
 * than anything persisted.
 */
import type * as ConfigFile from "../config/config_file.ts";
import { lazy } from "../lazy.ts";
import type { SecretStore } from "../config/secret_store.ts";
import type { Diagnostics } from "../output/diagnostics.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { envProvider } from "./env_provider.ts";
import { loginCommandFor } from "./login_command.ts";
import type { Send } from "./oauth_token.ts";
import type { ProviderDeps } from "./provider_deps.ts";
import type {
  AccessToken,
  CredentialChain,
  CredentialProvider,
  CredentialSource,
  Identity,
} from "./types.ts";

/** The broker's variable (`broker.ts`), named here so the broker client loads only when it is set. */
const BROKER_VARIABLE = "LARKIT_AUTH_BROKER";

/** A token handed out earlier in this run is reused until this close to its expiry. */
const REUSE_MARGIN_MS = 60_000;

export interface ChainOptions {
  profile?: string;
  /** `--user` / LARKIT_USER: which of the profile's logged-in users the user identity is. */
  user?: string;
  diag: Diagnostics;
  send: Send;
  /**
   * Mint the bot token instead of reading the on-disk cache (it is still written): under `--record`, so the
   * recording holds the mint and replays wherever it is replayed, whatever that token cache holds.
   */
  freshBotToken?: boolean;
}

/**
 * The secret store, loaded with its first use: a run whose credentials come from the environment and that
 * asks for no token (a dry run) never opens it (start-up).
 */
function deferredStore(p: Provider): SecretStore {
  let store: Promise<SecretStore> | undefined;
  const open = () => store ??= lazy("cli/config/secret_store.ts").then((m) => m.secretStore(p));
  return {
    get: async (key) => await (await open()).get(key),
    set: async (key, value) => await (await open()).set(key, value),
    remove: async (key) => await (await open()).remove(key),
  };
}

export function createCredentialChain(p: Provider, opts: ChainOptions): CredentialChain {
  const deps: ProviderDeps = {
    p,
    store: deferredStore(p),
    send: opts.send,
    loginCommand: loginCommandFor(opts.profile, opts.user),
    freshBotToken: opts.freshBotToken,
  };
  const config = (() => {
    let loaded: ReturnType<typeof ConfigFile.loadConfig> | undefined;
    return () => loaded ??= lazy("cli/config/config_file.ts").then((c) => c.loadConfig(p));
  })();

  /**
   * The config file is read (and zod loaded to parse it) only once the environment has passed: what it
   * lists comes after the environment, so a run configured by variables never touches it (start-up).
   */
  async function* providers(): AsyncGenerator<CredentialProvider> {
    const broker = p.env.get(BROKER_VARIABLE);
    if (broker) {
      // A sandboxed run: the broker is the only source; if it does not answer, nothing else is tried.
      if (opts.user !== undefined) {
        throw errors.config("--user / LARKIT_USER does not apply through the token broker", {
          hint:
            "the broker acts for the user it was started for: larkit --user <name> auth serve --socket ...",
        });
      }
      const { brokerProvider, brokerSocketPath } = await lazy("cli/auth/broker.ts");
      yield brokerProvider(brokerSocketPath(broker));
      return;
    }
    yield envProvider(deps);
    const extensions = (await config())?.credentialProviders ?? [];
    if (extensions.length) {
      const { extensionProvider } = await lazy("cli/auth/extension_provider.ts");
      for (const path of extensions) yield extensionProvider(p, path);
    }
    const { configProvider } = await lazy("cli/auth/config_provider.ts");
    yield configProvider({ ...deps, config, profile: opts.profile, user: opts.user });
  }

  async function resolveSource(): Promise<CredentialSource> {
    for await (const provider of providers()) {
      const source = await provider.resolve();
      if (source) {
        await opts.diag.debug(`credentials from ${source.account.source}`);
        return source;
      }
    }
    throw errors.config("not configured", {
      hint: "run larkit config init --app-id <id> --app-secret-stdin",
    });
  }

  let source: Promise<CredentialSource> | undefined;
  const resolved = () => source ??= resolveSource();
  const issued = new Map<Identity, AccessToken>();

  return {
    account: async () => (await resolved()).account,
    identities: async () => await (await resolved()).identities(),
    grantedScopes: async (identity) => await (await resolved()).grantedScopes(identity),
    async token(identity, signal, request) {
      const src = await resolved();
      if (src.perRequest) return await src.token(identity, signal, request);
      const held = issued.get(identity);
      if (held && (held.expiresAt === undefined || held.expiresAt - REUSE_MARGIN_MS > p.clock.now())) {
        return held;
      }
      const fresh = await src.token(identity, signal, request);
      issued.set(identity, fresh);
      return fresh;
    },
    async invalidate(identity, token, signal) {
      if (issued.get(identity)?.token === token) issued.delete(identity);
      const src = await resolved();
      return src.invalidate ? await src.invalidate(identity, token, signal) : false;
    },
    async appSecret() {
      const src = await resolved();
      if (src.appSecret) return await src.appSecret();
      throw errors.config(`the credentials from ${src.account.source} hold no app secret`, {
        hint:
          "configure the app secret: larkit config init --app-id <id> --app-secret-stdin, or LARKIT_APP_SECRET",
      });
    },
  };
}
