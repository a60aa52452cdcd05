/**
 * The registry as one run sees it (baseline + cached overlay), opened once per run, and the background
 * overlay refresh: started when the registry is first opened, awaited only after the command has written its
 * result (`ctx.state.background`), so it never delays a command; what it fetches serves the next run.
 */
import type { RunContext } from "../context.ts";
import { openRegistry, type Registry } from "../../registry/index.ts";
import { DEFAULT_TTL_MS, type OverlayDeps, refreshDue, refreshOverlay } from "../../registry/overlay.ts";

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

async function refreshInBackground(ctx: RunContext, deps: OverlayDeps): Promise<void> {
  const ttlSeconds = Number(ctx.p.env.get("LARKIT_META_TTL") ?? "");
  const ttl = Number.isFinite(ttlSeconds) && ttlSeconds > 0 ? ttlSeconds * 1000 : DEFAULT_TTL_MS;
  if (!await refreshDue(deps, ttl)) return;
  let url: string;
  try {
    url = await overlayUrl(ctx, ctx.p.version);
  } catch {
    // Not configured: no brand, so no endpoint to ask; the baseline serves.
    return;
  }
  await refreshOverlay(deps, (u, init) => ctx.http().send(u, init, { label: "registry overlay" }), url);
}

export function registryOf(ctx: RunContext): Promise<Registry> {
  let opened = OPENED.get(ctx);
  if (!opened) {
    const deps = remoteEnabled(ctx) ? overlayDeps(ctx) : undefined;
    opened = openRegistry(deps);
    OPENED.set(ctx, opened);
    if (deps) (ctx.state.background ??= []).push(refreshInBackground(ctx, deps));
  }
  return opened;
}
