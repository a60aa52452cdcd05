/**
 * Secrets at rest (app secrets, user tokens, cached bot tokens). With `config set secret-store keychain` the
 * app secrets and user tokens live in the OS keychain (`keychain.ts`); otherwise, and for the bot token cache
 * always, in the encrypted file store: one AES-256-GCM file per entry under
 * `<configDir>/secrets/`, the 32-byte master key beside them in `master.key`, everything 0600. This is
 * lark-cli's Linux keychain layout: it keeps secrets out of the plain config file, out of backups of it and
 * out of `grep`, though not from someone who can read the whole directory as this user.
 *
 * Entry file = 12-byte nonce || ciphertext+tag; the entry's key is the additional authenticated data, so a
 * file copied under another key's name fails to decrypt instead of handing out the wrong secret.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join, unlessMissing } from "../files.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { lazy } from "../lazy.ts";
import type { LarkitConfig } from "./config_file.ts";

export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export const appSecretKey = (appId: string) => `appsecret:${appId}`;

const NONCE_BYTES = 12;

export function secretsDir(p: Provider): string {
  return join(p.paths.configDir, "secrets");
}

function entryPath(p: Provider, key: string): string {
  return join(secretsDir(p), `${key.replace(/[^a-zA-Z0-9._-]/g, "_")}.enc`);
}

export type SecretBackend = "file" | "keychain";

/**
 * What the OS keychain holds when it is chosen: app secrets and user tokens (their refresh tokens). The bot
 * token cache, minted again from the app secret at will, stays in the file store either way.
 */
const KEYCHAIN_KEYS = /^(appsecret|uat):/;

/** The backend the config chose (`config set secret-store`); the encrypted file unless it says keychain. */
export async function secretBackend(p: Provider): Promise<SecretBackend> {
  const { loadConfig } = await lazy("cli/config/config_file.ts");
  return (await loadConfig(p).catch(() => undefined))?.secretStore ?? "file";
}

export function backendStore(p: Provider, backend: SecretBackend): Promise<SecretStore> {
  return backend === "keychain"
    ? lazy("cli/config/keychain.ts").then((k) => k.keychainStore(p))
    : Promise.resolve(fileStore(p));
}

/** The store every command uses: app secrets and user tokens where the config says, the rest in the file. */
export function secretStore(p: Provider): SecretStore {
  const file = fileStore(p);
  let chosen: Promise<SecretStore> | undefined;
  const storeFor = (key: string) =>
    KEYCHAIN_KEYS.test(key)
      ? chosen ??= secretBackend(p).then((b) => backendStore(p, b))
      : Promise.resolve(file);
  return {
    get: async (key) => await (await storeFor(key)).get(key),
    set: async (key, value) => await (await storeFor(key)).set(key, value),
    remove: async (key) => await (await storeFor(key)).remove(key),
  };
}

/** The keys of the secrets a config's profiles hold that the keychain would keep. */
export function keychainKeys(config: LarkitConfig): string[] {
  return config.profiles.flatMap((profile) => [
    appSecretKey(profile.appId),
    ...profile.users.map((u) => `uat:${profile.appId}:${u.openId}`),
  ]).filter((k) => KEYCHAIN_KEYS.test(k));
}

/** Moves the profiles' secrets from one backend to the other: all copied first, then the old ones removed. */
export async function moveSecrets(
  p: Provider,
  config: LarkitConfig,
  from: SecretBackend,
  to: SecretBackend,
): Promise<number> {
  if (from === to) return 0;
  const [src, dst] = [await backendStore(p, from), await backendStore(p, to)];
  const moved: string[] = [];
  for (const key of keychainKeys(config)) {
    const value = await src.get(key);
    if (value === undefined) continue;
    await dst.set(key, value);
    if (await dst.get(key) !== value) {
      throw errors.config(`the ${to} secret store did not keep ${key}`, {
        hint: "nothing was removed; retry",
      });
    }
    moved.push(key);
  }
  for (const key of moved) await src.remove(key);
  return moved.length;
}

/** The encrypted-file store (`<configDir>/secrets/`): the default, and the fallback where no keychain is. */
export function fileStore(p: Provider): SecretStore {
  let master: Promise<CryptoKey> | undefined;

  async function loadMasterKey(): Promise<CryptoKey> {
    const path = join(secretsDir(p), "master.key");
    // Whatever an older larkit or the umask left, the directories and the key become this user's only.
    await p.files.makePrivate(p.paths.configDir, "dir");
    await p.files.makePrivate(secretsDir(p), "dir");
    // Read first: the key exists on every run but the first, and a refused exclusive create costs a run ~3 ms
    // (start-up). When it is missing, createNew, so two first runs racing cannot each encrypt under a key the
    // other then overwrites; then read what won.
    let sealedKey = await unlessMissing(() => p.files.readFile(path));
    if (!sealedKey) {
      await p.files.createNew(path, p.random.bytes(32).toBase64(), { mode: 0o600 });
      sealedKey = await p.files.readFile(path);
    }
    await p.files.makePrivate(path, "file");
    const raw = Uint8Array.fromBase64(new TextDecoder().decode(sealedKey).trim());
    if (raw.length !== 32) {
      throw errors.config(`the secret store's master key is damaged: ${path}`, {
        hint: "remove the secrets directory and configure again: larkit config init",
      });
    }
    return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  }

  const key = () => master ??= loadMasterKey();
  const aad = (name: string) => new TextEncoder().encode(name);

  return {
    async get(name) {
      const sealed = await unlessMissing(() => p.files.readFile(entryPath(p, name)));
      if (!sealed) return undefined;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: sealed.slice(0, NONCE_BYTES), additionalData: aad(name) },
          await key(),
          sealed.slice(NONCE_BYTES),
        );
        return new TextDecoder().decode(plain);
      } catch (e) {
        if (!(e instanceof DOMException)) throw e;
        throw errors.config(`a stored secret cannot be decrypted (${name}): the master key changed`, {
          hint: "store it again: larkit config init (app secret) or larkit auth login (user token)",
        });
      }
    },
    async set(name, value) {
      const nonce = new Uint8Array(p.random.bytes(NONCE_BYTES));
      const cipher = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv: nonce, additionalData: aad(name) },
        await key(),
        new TextEncoder().encode(value),
      );
      const sealed = new Uint8Array(NONCE_BYTES + cipher.byteLength);
      sealed.set(nonce);
      sealed.set(new Uint8Array(cipher), NONCE_BYTES);
      await p.files.writeFileAtomic(entryPath(p, name), sealed, { mode: 0o600 });
    },
    async remove(name) {
      const path = entryPath(p, name);
      if (await p.files.stat(path)) await p.files.remove(path);
    },
  };
}
