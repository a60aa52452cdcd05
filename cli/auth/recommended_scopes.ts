/**
 * What `auth login --domain` and `--recommend` ask for, computed from the shortcut declarations at login so a
 * new shortcut's scope is never forgotten:
 * - `--domain calendar,im`: every user scope the shortcuts of those services declare (reads and writes), so
 *   after it every shortcut of the service runs as the user without a missing scope;
 * - `--recommend`: only the read shortcuts' scopes (of the `--domain` services, else of all). Read-only scopes
 *   are the ones tenant admins usually pre-approve, so this login goes through without an approval round.
 */
import type { Identity } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import type { Risk } from "../provider.ts";

interface Declared {
  risk: Risk;
  scopes: Partial<Record<Identity, string[]>>;
}

type Services = Record<string, { load(): Promise<Declared[]> }>;

/** `--domain` as typed: comma lists, repeated or not, `all` for every service; an unknown name is refused. */
export function parseDomains(given: string[], known: string[]): string[] {
  const names = [...new Set(given.flatMap((d) => d.split(",")).map((d) => d.trim()).filter(Boolean))];
  if (names.includes("all")) return known;
  for (const name of names) {
    if (known.includes(name)) continue;
    // A typo usually keeps the start of the word: "calendr", "mai".
    const near = known.find((k) => k.slice(0, 3) === name.slice(0, 3));
    throw errors.validation(
      near ? `unknown domain "${name}", did you mean "${near}"?` : `unknown domain "${name}"`,
      { hint: `available domains: ${known.join(", ")}, or all` },
    );
  }
  return names;
}

export async function domainScopes(
  services: Services,
  opts: { domains?: string[]; readOnly: boolean },
): Promise<string[]> {
  const scopes = new Set<string>();
  for (const name of opts.domains ?? Object.keys(services)) {
    for (const shortcut of await services[name].load()) {
      if (opts.readOnly && shortcut.risk !== "read") continue;
      for (const s of shortcut.scopes.user ?? []) scopes.add(s);
    }
  }
  return [...scopes];
}

/** `--recommend` alone: the read scopes of every service. */
export function recommendedScopes(services: Services): Promise<string[]> {
  return domainScopes(services, { readOnly: true });
}
