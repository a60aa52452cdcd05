/**
 * The remote metadata overlay (seed §9): newer metadata fetched from the suite's `api_definition` endpoint only
 * when asked (`larkit registry refresh`, or `doctor` once per TTL; never by an ordinary command, which must not
 * wait on the network), stored in the cache directory for the runs after it (`overlay_cache.ts` reads it). Whole
 * services replace baseline services by name. Anything wrong with the overlay (network, size, JSON, shape,
 * hostile names or paths) is a warning on stderr and the baseline stays in force; it never fails a command.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { concatBytes, joinPath as join } from "../cli/files.ts";
import { identitiesOf } from "./method.ts";
import {
  type OverlayDeps,
  overlayDir,
  type OverlayIndex,
  readOverlayIndex,
  schemas,
} from "./overlay_cache.ts";
import { MAX_SCOPES_BYTES, ScopeDocumentSchema, scopesCachePath } from "./overlay_scopes.ts";
import type { ServiceSpec, ServiceSummary } from "./schema.ts";

export const DEFAULT_TTL_MS = 24 * 3600 * 1000;
/** Larger responses are refused before parsing: a hostile endpoint must not exhaust memory. */
export const MAX_OVERLAY_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 5000;

export function summarize(spec: ServiceSpec): ServiceSummary {
  const methods = Object.values(spec.resources).flatMap((r) => Object.values(r.methods));
  return {
    name: spec.name,
    title: spec.title ?? spec.name,
    description: spec.description ?? spec.title ?? `${spec.name} operations`,
    descriptionZh: spec.descriptionZh,
    identities: [...new Set(methods.flatMap((m) => identitiesOf(m)))].sort(),
    methods: methods.length,
  };
}

/** Whether the TTL since the last check (successful or not) has run out. */
export async function refreshDue(d: OverlayDeps, ttlMs: number): Promise<boolean> {
  try {
    const { OverlayCheckSchema } = await schemas();
    const check = OverlayCheckSchema.parse(
      JSON.parse(await d.files.readTextFile(join(overlayDir(d), "check.json"))),
    );
    return d.now() - check.lastCheckAt >= ttlMs;
  } catch {
    return true;
  }
}

async function readCapped(res: Response, cap = MAX_OVERLAY_BYTES): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > cap) throw new Error(`response too large (${declared} bytes)`);
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > cap) {
      await reader.cancel();
      throw new Error(`response larger than ${cap} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concatBytes(chunks));
}

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Asks the endpoint for newer metadata and stores what validates. Returns what happened, for logs and tests;
 * never throws. `check.json` is bumped first, so a failing endpoint is asked at most once per TTL.
 */
export async function refreshOverlay(
  d: OverlayDeps,
  fetcher: Fetcher,
  url: string,
): Promise<"updated" | "not-modified" | "failed"> {
  try {
    await d.files.writeFileAtomic(
      join(overlayDir(d), "check.json"),
      JSON.stringify({ lastCheckAt: d.now(), url }),
    );
    const current = await readOverlayIndex(d);
    const target = new URL(url);
    if (current) target.searchParams.set("data_version", current.version);
    const res = await fetcher(target.toString(), {
      method: "GET",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    const { OverlayResponseSchema, ServiceSpecSchema } = await schemas();
    const envelope = OverlayResponseSchema.parse(JSON.parse(await readCapped(res)));
    const services = envelope.data.services;
    if (!services) return "not-modified";
    const valid: ServiceSpec[] = [];
    for (const raw of services) {
      const parsed = ServiceSpecSchema.safeParse(raw);
      if (parsed.success) valid.push(parsed.data);
      else {
        const name = (raw as { name?: unknown } | null)?.name;
        await d.warn(`registry overlay: service ${JSON.stringify(name ?? "?")} is invalid and was skipped`);
      }
    }
    const unique = [...new Map(valid.map((s) => [s.name, s])).values()];
    for (const s of unique) {
      await d.files.writeFileAtomic(join(overlayDir(d), "services", `${s.name}.json`), JSON.stringify(s));
    }
    const index: OverlayIndex = { version: envelope.data.version, services: unique.map(summarize) };
    await d.files.writeFileAtomic(join(overlayDir(d), "overlay.json"), JSON.stringify(index));
    return "updated";
  } catch (e) {
    await d.warn(`registry overlay not updated from ${url}: ${e instanceof Error ? e.message : String(e)}`);
    return "failed";
  }
}

/**
 * Fetches the recommended-scopes document (`overlay_scopes.ts`) and caches it when it validates as a whole;
 * anything wrong is a warning and the previously cached document stays (a half-valid list would silently
 * drop recommendations). Never throws.
 */
export async function refreshScopes(
  d: OverlayDeps,
  fetcher: Fetcher,
  url: string,
): Promise<"updated" | "failed"> {
  try {
    const res = await fetcher(url, { method: "GET", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    const doc = ScopeDocumentSchema.parse(JSON.parse(await readCapped(res, MAX_SCOPES_BYTES)));
    await d.files.writeFileAtomic(scopesCachePath(d), JSON.stringify(doc));
    return "updated";
  } catch (e) {
    await d.warn(`recommended scopes not updated from ${url}: ${e instanceof Error ? e.message : String(e)}`);
    return "failed";
  }
}
