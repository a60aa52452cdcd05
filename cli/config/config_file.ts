/**
 * The one config file per user: `<configDir>/config.json`, parsed with zod on every load and written
 * atomically with mode 0600. It holds no secret: app secrets and tokens live in the encrypted secret store
 * (`secret_store.ts`), keyed by app id, so the file can be shown, diffed and backed up safely.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../files.ts";
import * as z from "zod";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { AS_VALUES, BRANDS, LANGS, STRICT_MODES } from "./values.ts";

export { AS_VALUES, BRANDS, IDENTITIES, LANGS, STRICT_MODES } from "./values.ts";

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
const ProfileUserSchema = z.lazy(() =>
  z.object({
    openId: z.string().check(z.minLength(1)),
    name: z.optional(z.string()),
    /** The user's tenant, as the suite named it at login (absent for logins made before it was kept). */
    tenantKey: z.optional(z.string()),
  })
);

const ProfileSchema = z.lazy(() =>
  z.object({
    name: z.string().check(z.minLength(1)),
    appId: z.string().check(z.minLength(1)),
    brand: z.enum(BRANDS),
    /** Only for brand `custom`: the origin every service lives at (the emulator, a proxy). */
    baseUrl: z.optional(z.string()),
    /**
     * An origin off the suite's domains that the user confirmed at a terminal (`endpoints.ts`); it counts only
     * while it is the `baseUrl`, so a later base URL needs its own confirmation.
     */
    confirmedEndpoint: z.optional(z.string()),
    lang: z.optional(z.enum(LANGS)),
    defaultAs: z.optional(z.enum(AS_VALUES)),
    strictMode: z.optional(z.enum(STRICT_MODES)),
    /** The app's granted scopes, when known: what the bot-side scope pre-check compares against. */
    botScopes: z.optional(z.array(z.string())),
    /**
     * The logged-in users, each with its own token in the secret store (keyed by app and open_id); the first
     * is the default (the latest login), `--user` / LARKIT_USER picks another. A config written when a
     * profile held one user reads the same.
     */
    users: z._default(z.array(ProfileUserSchema), []),
  })
);

export const ConfigSchema = z.lazy(() =>
  z.object({
    /** Global strict mode; a profile's own `strictMode` overrides it. */
    strictMode: z.optional(z.enum(STRICT_MODES)),
    currentProfile: z.optional(z.string()),
    /** What `profile use -` switches back to. */
    previousProfile: z.optional(z.string()),
    /** Where app secrets and user tokens are kept: the encrypted file (default) or the OS keychain. */
    secretStore: z.optional(z.enum(["file", "keychain"])),
    /** Executables of extension credential providers, asked in this order (docs/credential-providers.md). */
    credentialProviders: z.optional(z.array(z.string())),
    profiles: z._default(z.array(ProfileSchema), []),
  })
);

export type LarkitConfig = z.infer<typeof ConfigSchema>;
export type Profile = z.infer<typeof ProfileSchema>;
export type ProfileUser = z.infer<typeof ProfileUserSchema>;

export function configPath(p: Provider): string {
  return join(p.paths.configDir, "config.json");
}

/** The parsed config, or undefined when the file does not exist; a broken file is a `config` error. */
export async function loadConfig(p: Provider): Promise<LarkitConfig | undefined> {
  const path = configPath(p);
  let text: string;
  try {
    text = await p.files.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    if (e instanceof Deno.errors.NotADirectory) {
      throw errors.config(`the config directory ${p.paths.configDir} is not a directory`, {
        hint: "point LARKIT_CONFIG_DIR at a directory (it is created if missing), or move the file away",
      });
    }
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw errors.config(`config file is not valid JSON: ${path}`, {
      hint: "fix the file, or start again with larkit config remove --yes && larkit config init",
    });
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.config(`invalid config file ${path}: ${issue.path.join(".")}: ${issue.message}`, {
      hint: "fix the file, or start again with larkit config remove --yes && larkit config init",
    });
  }
  return parsed.data;
}

export async function saveConfig(p: Provider, config: LarkitConfig): Promise<void> {
  await p.files.makePrivate(p.paths.configDir, "dir");
  await p.files.writeFileAtomic(configPath(p), JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
}
