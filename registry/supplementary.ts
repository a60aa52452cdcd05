/**
 * Supplementary registry entries: suite endpoints the generated baseline lacks (newer families such as base v3
 * or application v7) that a shortcut calls. Each `registry/supplementary/<name>.json` declares the shortcut's
 * requests in the registry's own method shape (path, parameters, body, response where known); the generator
 * merges them into the baseline, so `schema`, dry-run validation, the generated commands and the emulator's
 * generic handler treat them like any other method. Read at generation time only.
 *
 * Their request fields are the whole request: the emulator refuses any other field. Where the official SDK types
 * the same route, its request replaces the entry's (`generate.ts`); a field the SDK lacks survives only with a
 * `source` naming where the suite documents it. So the request shapes written here by hand are those the SDK has
 * no type for (sheets v2, slides_ai, docs_ai history, base v3, ...), each file's `description` naming its source.
 */
import * as z from "zod";
import { OverridesSchema } from "./schema.ts";

export const SupplementarySchema = z.strictObject({
  /** Why these entries exist: which shortcut declares them and where the suite documents them. */
  description: z.string().check(z.minLength(1)),
  /** `name` is the SDK-style name (`base.v3.appTable.list`); `path` the full `/open-apis/...` path. */
  methods: OverridesSchema.shape.add,
});
export type Supplementary = z.infer<typeof SupplementarySchema>;
