/**
 * Types of the generated response shapes (registry/shapes/), produced by `registry/generate.ts`. A service
 * without a shape file (an overlay-only service) yields an empty map.
 */
import type { JsonSchema } from "./fields.ts";

/** `"resource.method"` -> the JSON Schema of that method's response `data`. */
export declare function loadShapeFile(service: string): Promise<Record<string, JsonSchema>>;
