/**
 * Loads an extension credential provider from a module path listed in the config (`credentialProviders`;
 * relative paths are taken from the config directory) and adapts it to the chain. The module is imported
 * only when the chain reaches it, so a run that the environment provider answers never loads it.
 */
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { endpointsFor } from "../config/endpoints.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import {
  type CredentialProviderExtension,
  ExtensionAccountSchema,
  type ExtensionHost,
  ExtensionTokenSchema,
} from "./extension_api.ts";
import type { CredentialProvider, CredentialSource } from "./types.ts";

const REMOVE_HINT = 'or remove it from the chain: larkit config set credential-providers ""';

export function extensionModulePath(p: Provider, path: string): string {
  return isAbsolute(path) ? path : join(p.paths.configDir, path);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function isExtension(value: unknown): value is CredentialProviderExtension {
  const v = value as Partial<CredentialProviderExtension> | null;
  return !!v && typeof v.name === "string" && typeof v.account === "function" &&
    typeof v.token === "function";
}

async function load(p: Provider, path: string): Promise<CredentialProviderExtension> {
  const file = extensionModulePath(p, path);
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    throw errors.config(`cannot load credential provider ${file}: ${message(e)}`, {
      hint: `fix the module path, ${REMOVE_HINT}`,
    });
  }
  if (typeof mod.default !== "function") {
    throw errors.config(`credential provider ${file} has no default-exported factory function`, {
      hint: `see docs/credential-providers.md, ${REMOVE_HINT}`,
    });
  }
  const host: ExtensionHost = { env: (n) => p.env.get(n), now: () => p.clock.now(), fetch: p.fetch };
  const ext: unknown = mod.default(host);
  if (!isExtension(ext)) {
    throw errors.config(`credential provider ${file} returned no {name, account(), token()} object`, {
      hint: `see docs/credential-providers.md, ${REMOVE_HINT}`,
    });
  }
  return ext;
}

/** A provider's own failure, returned at once (the chain does not fall through to other accounts). */
function failed(name: string, file: string, e: unknown): LarkitError {
  if (e instanceof LarkitError) return e;
  return errors.auth(`credential provider "${name}" failed: ${message(e)}`, {
    hint: `fix the provider's setup (${file}), ${REMOVE_HINT}`,
  });
}

function malformed(name: string, what: string, issue: string): LarkitError {
  return errors.config(`credential provider "${name}" returned a malformed ${what}: ${issue}`, {
    hint: "see docs/credential-providers.md for the shape",
  });
}

async function adapt(p: Provider, path: string): Promise<CredentialSource | undefined> {
  const ext = await load(p, path);
  const file = extensionModulePath(p, path);
  let answer: unknown;
  try {
    answer = await ext.account();
  } catch (e) {
    throw failed(ext.name, file, e);
  }
  if (answer === null || answer === undefined) return undefined;
  const parsed = ExtensionAccountSchema.safeParse(answer);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(ext.name, "account", `${issue.path.join(".")}: ${issue.message}`);
  }
  const acct = parsed.data;
  return {
    account: {
      source: `extension:${ext.name}`,
      appId: acct.appId,
      brand: acct.brand,
      endpoints: endpointsFor(acct.brand, acct.baseUrl),
      defaultAs: acct.defaultAs,
      strictMode: acct.strictMode,
      user: acct.user,
    },
    identities: () => Promise.resolve(acct.identities),
    grantedScopes: (identity) => Promise.resolve(acct.scopes?.[identity]),
    async token(identity) {
      if (!acct.identities.includes(identity)) {
        throw errors.auth(`credential provider "${ext.name}" offers no ${identity} identity`, {
          hint: `use --as ${acct.identities[0]}`,
        });
      }
      let raw: unknown;
      try {
        raw = await ext.token(identity);
      } catch (e) {
        throw failed(ext.name, file, e);
      }
      const token = ExtensionTokenSchema.safeParse(raw);
      if (!token.success) throw malformed(ext.name, "token", token.error.issues[0].message);
      return { identity, ...token.data };
    },
  };
}

export function extensionProvider(p: Provider, path: string): CredentialProvider {
  return { name: `extension:${path}`, resolve: () => adapt(p, path) };
}
