/**
 * Secrets at rest (app secrets, user tokens, cached bot tokens): one AES-256-GCM file per entry under
 * `<configDir>/secrets/`, the 32-byte master key beside them in `master.key`, everything 0600. This is
 * lark-cli's Linux keychain layout: it keeps secrets out of the plain config file, out of backups of it and
 * out of `grep`, though not from someone who can read the whole directory as this user.
 *
 * Entry file = 12-byte nonce || ciphertext+tag; the entry's key is the additional authenticated data, so a
 * file copied under another key's name fails to decrypt instead of handing out the wrong secret.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../files.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";

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

async function readIfExists(p: Provider, path: string): Promise<Uint8Array | undefined> {
  try {
    return await p.files.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

export function secretStore(p: Provider): SecretStore {
  let master: Promise<CryptoKey> | undefined;

  async function loadMasterKey(): Promise<CryptoKey> {
    const path = join(secretsDir(p), "master.key");
    // Whatever an older larkit or the umask left, the directories and the key become this user's only.
    await p.files.makePrivate(p.paths.configDir, "dir");
    await p.files.makePrivate(secretsDir(p), "dir");
    // Read first: the key exists on every run but the first, and a refused exclusive create costs a run ~3 ms
    // (start-up). When it is missing, createNew, so two first runs racing cannot each encrypt under a key the
    // other then overwrites; then read what won.
    let sealedKey = await readIfExists(p, path);
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
      const sealed = await readIfExists(p, entryPath(p, name));
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
