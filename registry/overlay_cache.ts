/**
 * The cached remote metadata overlay as a run reads it (seed §9; `overlay.ts` fetches it, only when asked).
 * Every run that looks for an overlay loads this module, so it holds only the reading (start-up, issue 17).
 *
 * Cache layout under `<cacheDir>/registry/`: `check.json` (when we last asked), `overlay.json` (version +
 * service summaries, written last), `services/<name>.json` (one validated service each, read only on demand).
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../cli/files.ts";
import type { ServiceSpec, ServiceSummary } from "./schema.ts";
import { lazy } from "../cli/lazy.ts";

/**
 * The metadata schemas are many and costly to build: they load when an overlay file or response is actually
 * read, not on every run that merely looks for one (start-up).
 */
export const schemas = () => lazy("registry/schema.ts");

/** The file operations the overlay needs (the provider's `files` fits). */
export interface OverlayFiles {
  readTextFile(path: string): Promise<string>;
  writeFileAtomic(path: string, data: string): Promise<void>;
  stat(path: string): Promise<unknown | null>;
}

export interface OverlayDeps {
  files: OverlayFiles;
  cacheDir: string;
  now(): number;
  warn(message: string): Promise<void>;
}

export interface OverlayIndex {
  version: string;
  services: ServiceSummary[];
}

/** The overlay's cache directory. */
export const overlayDir = (d: OverlayDeps) => join(d.cacheDir, "registry");

/** The cached overlay's index, or undefined (none yet, or unreadable: then a warning, and the baseline wins). */
export async function readOverlayIndex(d: OverlayDeps): Promise<OverlayIndex | undefined> {
  const path = join(overlayDir(d), "overlay.json");
  if (!await d.files.stat(path)) return undefined;
  try {
    const { RegistryIndexSchema } = await schemas();
    return RegistryIndexSchema.parse(JSON.parse(await d.files.readTextFile(path)));
  } catch (e) {
    await d.warn(`registry overlay cache ignored (${path}): ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** One cached overlay service, validated again (the cache is a file anyone may edit). */
export async function readOverlayService(d: OverlayDeps, name: string): Promise<ServiceSpec | undefined> {
  const path = join(overlayDir(d), "services", `${name}.json`);
  try {
    const { ServiceSpecSchema } = await schemas();
    const spec = ServiceSpecSchema.parse(JSON.parse(await d.files.readTextFile(path)));
    return spec.name === name ? spec : undefined;
  } catch (e) {
    await d.warn(`registry overlay for "${name}" ignored: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
