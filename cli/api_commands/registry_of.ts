/**
 * The registry as one run sees it (baseline + cached overlay), opened once per run, and the overlay refresh.
 * The refresh never rides along with an ordinary command: offline it waited seconds for the download to fail
 * and wrote a warning after the command's result. It runs only when asked (`larkit registry refresh`) and in
 * `doctor`; what it fetches serves the runs after it.
 */
import type { RunContext } from "../context.ts";
import { openRegistry, type Registry } from "../../registry/index.ts";
import { lazy } from "../lazy.ts";
import type { OverlayDeps } from "../../registry/overlay_cache.ts";

const OPENED = new WeakMap<RunContext, Promise<Registry>>();

function overlayDeps(ctx: RunContext): OverlayDeps {
  return {
    files: ctx.p.files,
    cacheDir: ctx.p.paths.cacheDir,
    now: () => ctx.p.clock.now(),
    warn: (m) => ctx.diag.warn(m),
  };
}

function remoteEnabled(ctx: RunContext): boolean {
  return !ctx.globals.offline && ctx.p.env.get("LARKIT_REMOTE_META") !== "off";
}

async function overlayUrl(ctx: RunContext, version: string): Promise<string> {
  const configured = ctx.p.env.get("LARKIT_META_URL");
  const base = configured ??
    new URL("/api/tools/open/api_definition", (await ctx.credentials().account()).endpoints.open).toString();
  const url = new URL(base);
  if (!configured) url.searchParams.set("protocol", "meta");
  url.searchParams.set("client_version", version);
  return url.toString();
}

/**
 * The recommended-scopes document (`registry/overlay_scopes.ts`) beside the metadata: `scopes.json` next to
 * `api_definition` on the brand's open endpoint (or next to `LARKIT_META_URL`).
 */
async function scopesUrl(ctx: RunContext): Promise<string> {
  const configured = ctx.p.env.get("LARKIT_META_URL");
  if (configured) return new URL("scopes.json", configured).toString();
  return new URL("/api/tools/open/scopes.json", (await ctx.credentials().account()).endpoints.open)
    .toString();
}

export type RefreshResult = "updated" | "not-modified" | "failed" | "not-due" | "off" | "not-configured";

/**
 * Asks the suite for newer metadata now; `force` ignores the TTL (`LARKIT_META_TTL` seconds, default a day)
 * since the last attempt. Never throws: a failure is a warning on stderr and the cached overlay stays.
 * Only the forced refresh (`larkit registry refresh`) also fetches the recommended scopes: `doctor` leaves
 * what a login asks for as it was. The result is the metadata's; the scopes' failure is its own warning.
 */
export async function refreshRegistryOverlay(
  ctx: RunContext,
  opts: { force: boolean },
): Promise<RefreshResult> {
  if (!remoteEnabled(ctx)) return "off";
  const { DEFAULT_TTL_MS, refreshDue, refreshOverlay, refreshScopes } = await lazy("registry/overlay.ts");
  const deps = overlayDeps(ctx);
  const ttlSeconds = Number(ctx.p.env.get("LARKIT_META_TTL") ?? "");
  const ttl = Number.isFinite(ttlSeconds) && ttlSeconds > 0 ? ttlSeconds * 1000 : DEFAULT_TTL_MS;
  if (!opts.force && !await refreshDue(deps, ttl)) return "not-due";
  let url: string;
  try {
    url = await overlayUrl(ctx, ctx.p.version);
  } catch {
    // Not configured: no brand, so no endpoint to ask; the baseline serves.
    return "not-configured";
  }
  const result = await refreshOverlay(
    deps,
    (u, init) => ctx.http().send(u, init, { label: "registry overlay" }),
    url,
  );
  if (opts.force) {
    await refreshScopes(
      deps,
      (u, init) => ctx.http().send(u, init, { label: "recommended scopes" }),
      await scopesUrl(ctx),
    );
  }
  return result;
}

export function registryOf(ctx: RunContext): Promise<Registry> {
  let opened = OPENED.get(ctx);
  if (!opened) {
    const deps = remoteEnabled(ctx) ? overlayDeps(ctx) : undefined;
    opened = openRegistry(deps);
    OPENED.set(ctx, opened);
  }
  return opened;
}
