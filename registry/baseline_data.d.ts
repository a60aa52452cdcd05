/**
 * Types of the generated baseline (registry/baseline/). It is produced by `registry/generate.ts` and checked
 * against the zod schemas by `registry/baseline_test.ts`, so it is trusted here without a runtime parse.
 */
import type { RegistryIndex, RunnableService, ServiceSpec } from "./schema.ts";

export declare const baselineIndex: RegistryIndex;
/** Only call with a name listed in `baselineIndex.services`. */
export declare function loadBaselineService(name: string): Promise<ServiceSpec>;
/**
 * One resource of the service without description text (`runnable.ts`): what running one of its methods reads.
 * Rejects when the service has no such resource (the file is missing); only call with a listed service.
 */
export declare function loadBaselineRunnable(service: string, resource: string): Promise<RunnableService>;
