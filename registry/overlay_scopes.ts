/**
 * The recommended-scopes overlay (issue 36): which user scopes the suite recommends (tenant admins usually
 * pre-approve them), kept current without a release. `larkit registry refresh` fetches the document
 * (`overlay.ts`'s `refreshScopes`) beside the registry overlay; `auth login --recommend` reads the cached copy
 * here and never asks the network. The document has the reference CLI's shape: an array of
 * `{"scope_name", "final_score": "52.42", "recommend": "true" | "false"}`.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../cli/files.ts";
import * as z from "zod";
import type { OverlayDeps } from "./overlay_cache.ts";

/** Refused before parsing when larger: the document lists scopes, a few hundred KB at most. */
export const MAX_SCOPES_BYTES = 2 * 1024 * 1024;

export const ScopeDocumentSchema = z.array(z.looseObject({
  // A scope name as the suite spells them (`calendar:calendar.event:read`): no spaces, which would split it
  // into two scopes in the login request.
  scope_name: z.string().check(z.regex(/^[A-Za-z0-9_.:-]+$/), z.maxLength(200)),
  final_score: z.optional(z.string().check(z.regex(/^\d+(\.\d+)?$/))),
  recommend: z.enum(["true", "false"]),
})).check(z.maxLength(20_000));

export type ScopeDocument = z.infer<typeof ScopeDocumentSchema>;

/** Beside the registry overlay's files (`overlay_cache.ts`'s layout). */
export const scopesCachePath = (d: Pick<OverlayDeps, "cacheDir">) =>
  join(d.cacheDir, "registry", "scopes.json");

/** The scopes the document recommends. */
export const recommendedIn = (doc: ScopeDocument): Set<string> =>
  new Set(doc.filter((e) => e.recommend === "true").map((e) => e.scope_name));

/**
 * The cached document's recommended scopes, or undefined when none is cached (the shortcut-derived read
 * scopes serve then) or the cache is unreadable (a warning, and the same fallback).
 */
export async function readRecommendedScopes(
  d: Pick<OverlayDeps, "files" | "cacheDir" | "warn">,
): Promise<Set<string> | undefined> {
  const path = scopesCachePath(d);
  if (!await d.files.stat(path)) return undefined;
  try {
    return recommendedIn(ScopeDocumentSchema.parse(JSON.parse(await d.files.readTextFile(path))));
  } catch (e) {
    await d.warn(`recommended scopes cache ignored (${path}): ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
