/**
 * The registry loader: the embedded baseline with the cached remote overlay on top (whole services replace
 * baseline services by name). `listServices` is cheap (summaries only, for help and completion);
 * `loadService` reads one service; `findMethod` one method; `findRunnable` one method as running it reads it.
 */
import { baselineIndex, loadBaselineRunnable, loadBaselineService } from "./baseline_data.js";
import { type ApiMethod, methodsOf, type RunnableMethod, toApiMethod, toRunnableMethod } from "./method.ts";
import {
  type OverlayDeps,
  type OverlayIndex,
  readOverlayIndex,
  readOverlayService,
} from "./overlay_cache.ts";
import type { RunnableService, ServiceSpec, ServiceSummary } from "./schema.ts";

export type { ApiMethod, RunnableMethod } from "./method.ts";
export type { ServiceSpec, ServiceSummary } from "./schema.ts";

export interface Registry {
  /** Baseline version, plus the overlay's when one is in force: `0.5.1-abc+overlay:2026.04.18`. */
  readonly version: string;
  listServices(): ServiceSummary[];
  loadService(name: string): Promise<ServiceSpec | undefined>;
  findMethod(service: string, resource: string, method: string): Promise<ApiMethod | undefined>;
  /** One method without its description text: what running it needs, read without the service's text. */
  findRunnable(service: string, resource: string, method: string): Promise<RunnableMethod | undefined>;
  /** Every method of a service, in name order. */
  methods(service: string): Promise<ApiMethod[]>;
}

/** The registry as this run sees it. Without `overlay` deps (or offline), the baseline alone. */
export async function openRegistry(overlay?: OverlayDeps): Promise<Registry> {
  const remote: OverlayIndex | undefined = overlay ? await readOverlayIndex(overlay) : undefined;
  const summaries = new Map(baselineIndex.services.map((s) => [s.name, s]));
  const overlaid = new Set<string>();
  for (const s of remote?.services ?? []) {
    summaries.set(s.name, s);
    overlaid.add(s.name);
  }
  const baselineNames = new Set(baselineIndex.services.map((s) => s.name));
  const cache = new Map<string, Promise<ServiceSpec | undefined>>();

  async function fromSources(name: string): Promise<ServiceSpec | undefined> {
    if (overlay && overlaid.has(name)) {
      const spec = await readOverlayService(overlay, name);
      if (spec) return spec;
    }
    return baselineNames.has(name) ? await loadBaselineService(name) : undefined;
  }

  function loadService(name: string): Promise<ServiceSpec | undefined> {
    if (!summaries.has(name)) return Promise.resolve(undefined);
    let p = cache.get(name);
    if (!p) cache.set(name, p = fromSources(name));
    return p;
  }

  const runnables = new Map<string, Promise<RunnableService | undefined>>();

  /**
   * A baseline service not read whole yet comes as the one resource, without its text; anything else as
   * `loadService` has it. The baseline lists no resources, so a resource is looked for as its file: a name
   * that cannot be one, or a missing file, is no such resource (the resolver then lists the
   * whole service and says what is wrong).
   */
  function loadRunnable(name: string, resource: string): Promise<RunnableService | undefined> {
    if (cache.has(name) || overlaid.has(name) || !baselineNames.has(name)) return loadService(name);
    if (!RESOURCE_NAME.test(resource)) return Promise.resolve(undefined);
    const key = `${name}/${resource}`;
    let p = runnables.get(key);
    if (!p) runnables.set(key, p = loadBaselineRunnable(name, resource).catch(() => undefined));
    return p;
  }

  return {
    version: remote ? `${baselineIndex.version}+overlay:${remote.version}` : baselineIndex.version,
    listServices: () =>
      [...summaries.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    loadService,
    async findMethod(service, resource, method) {
      const spec = await loadService(service);
      const m = methodIn(spec, resource, method);
      return spec && m ? toApiMethod(spec, resource, method, m) : undefined;
    },
    async findRunnable(service, resource, method) {
      const spec = await loadRunnable(service, resource);
      const m = methodIn(spec, resource, method);
      return spec && m ? toRunnableMethod(spec, resource, method, m) : undefined;
    },
    async methods(service) {
      const spec = await loadService(service);
      return spec ? methodsOf(spec) : [];
    },
  };
}

/** A resource's name as the registry spells them (`events`, `event.attendees`, `spreadsheet.dataValidation`). */
const RESOURCE_NAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

function methodIn<M>(
  spec: { resources: Record<string, { methods: Record<string, M> }> } | undefined,
  resource: string,
  method: string,
): M | undefined {
  return spec && Object.hasOwn(spec.resources, resource) &&
      Object.hasOwn(spec.resources[resource].methods, method)
    ? spec.resources[resource].methods[method]
    : undefined;
}
