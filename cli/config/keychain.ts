/**
 * The OS keychain as a secret store (`config set secret-store keychain`): macOS Keychain, Windows Credential
 * Manager, the Linux Secret Service (gnome-keyring, KWallet), through `@napi-rs/keyring` (the Rust `keyring`
 * crate as a Node-API addon, which loads under Deno's npm support). Loaded only when the keychain is chosen
 * (~65-150 ms to load the addon), so the file store's runs never pay for it.
 *
 * Entries are named by service `larkit:<config dir>` and account = the store's key (`appsecret:<app id>`,
 * `uat:<app id>:<open id>`), so two config directories (a test's, a second setup) never share an entry.
 */
import { Entry } from "@napi-rs/keyring";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import type { SecretStore } from "./secret_store.ts";

function unavailable(e: unknown) {
  const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
  return errors.config(`the OS keychain cannot be used: ${why}`, {
    hint:
      "unlock or start the keychain (Linux: a Secret Service such as gnome-keyring on the session bus), " +
      "or keep secrets in the encrypted file: larkit config set secret-store file",
  });
}

function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw unavailable(e);
  }
}

export function keychainStore(p: Provider): SecretStore {
  const service = `larkit:${p.paths.configDir}`;
  const entry = (key: string) => guarded(() => new Entry(service, key));
  return {
    get: (key) => Promise.resolve(guarded(() => entry(key).getPassword()) ?? undefined),
    set: (key, value) => Promise.resolve(guarded(() => entry(key).setPassword(value))),
    remove: (key) => Promise.resolve(void guarded(() => entry(key).deletePassword())),
  };
}

/** Whether the keychain answers now: a write, read back and removed, of a probe entry. */
export function probeKeychain(p: Provider): void {
  const probe = guarded(() => new Entry(`larkit:${p.paths.configDir}`, "probe"));
  guarded(() => probe.setPassword("ok"));
  if (guarded(() => probe.getPassword()) !== "ok") throw unavailable("a probe entry did not read back");
  guarded(() => probe.deletePassword());
}
