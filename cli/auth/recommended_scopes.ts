/**
 * What `auth login --domain` and `--recommend` ask for, computed from the shortcut declarations at login so a
 * new shortcut's scope is never forgotten:
 * - `--domain calendar,im`: every user scope the shortcuts of those services declare (reads and writes), so
 *   after it every shortcut of the service runs as the user without a missing scope;
 * - `--recommend`: of those scopes (of the `--domain` services, else of all), the ones the suite recommends
 *   (tenant admins usually pre-approve them, so this login goes through without an approval round), from the
 *   document `larkit registry refresh` cached (`registry/overlay_scopes.ts`), so the choice follows the suite
 *   without a release. With none cached, the read shortcuts' scopes: read-only scopes are the ones usually
 *   pre-approved. A login never asks the network for it.
 */
import type { Identity } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import type { Risk } from "../provider.ts";
import type { OverlayDeps } from "../../registry/overlay_cache.ts";
import { lazy } from "../lazy.ts";

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

/**
 * The scopes of the services' shortcuts. `readOnly` (`--recommend`) keeps those in `recommended` (the cached
 * document's) when given, else the read shortcuts' ones.
 */
export async function domainScopes(
  services: Services,
  opts: { domains?: string[]; readOnly: boolean; recommended?: Set<string> },
): Promise<string[]> {
  const scopes = new Set<string>();
  for (const name of opts.domains ?? Object.keys(services)) {
    for (const shortcut of await services[name].load()) {
      if (opts.readOnly && !opts.recommended && shortcut.risk !== "read") continue;
      for (const s of shortcut.scopes.user ?? []) {
        if (opts.readOnly && opts.recommended && !opts.recommended.has(s)) continue;
        scopes.add(s);
      }
    }
  }
  return [...scopes];
}

/** `--recommend` alone: the recommended scopes of every service. */
export function recommendedScopes(services: Services, recommended?: Set<string>): Promise<string[]> {
  return domainScopes(services, { readOnly: true, recommended });
}

/** The cached document's recommended scopes, or undefined when none is cached (no network). */
export async function cachedRecommendation(
  d: Pick<OverlayDeps, "files" | "cacheDir" | "warn">,
): Promise<Set<string> | undefined> {
  const { readRecommendedScopes } = await lazy("registry/overlay_scopes.ts");
  return await readRecommendedScopes(d);
}
