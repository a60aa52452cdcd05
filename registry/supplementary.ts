/**
 * Supplementary registry entries: suite endpoints the generated baseline lacks (newer families such as base v3
 * or application v7) that a shortcut calls. Each `registry/supplementary/<name>.json` declares the shortcut's
 * requests in the registry's own method shape (path, parameters, body, response where known); the generator
 * merges them into the baseline, so `schema`, dry-run validation, the generated commands and the emulator's
 * generic handler treat them like any other method. Read at generation time only.
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
