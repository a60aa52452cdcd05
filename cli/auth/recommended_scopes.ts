/**
 * What `auth login --recommend` asks for: exactly the user scopes the read shortcuts declare, so after it every
 * read shortcut runs as the user without a missing scope. Read-only scopes are the ones tenant admins usually
 * pre-approve, so this login goes through without an approval round; writes are asked for with `--scope` when
 * a command needs them (its missing-scope hint names them, added to the grant). Computed from the declarations
 * at login, so a new read shortcut's scope is never forgotten.
 */
import type { Identity } from "../output/envelope.ts";
import type { Risk } from "../provider.ts";

interface Declared {
  risk: Risk;
  scopes: Partial<Record<Identity, string[]>>;
}

export async function recommendedScopes(
  services: Iterable<{ load(): Promise<Declared[]> }>,
): Promise<string[]> {
  const scopes = new Set<string>();
  for (const service of services) {
    for (const shortcut of await service.load()) {
      if (shortcut.risk === "read") { for (const s of shortcut.scopes.user ?? []) scopes.add(s); }
    }
  }
  return [...scopes];
}
