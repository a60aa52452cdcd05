/**
 * The `--params` values a generated command offers: for help and completion only, so running a method does not
 * load the registry's field helpers (start-up, issue 17).
 */
import type { FlagValue } from "../command_meta.ts";
import type { RunnableMethod } from "../../registry/index.ts";
import { enumOf } from "../../registry/fields.ts";

/**
 * `--params` values for completion: one JSON object per value of each enum parameter the registry declares
 * (`{"user_id_type":"open_id"}`), described by the parameter's own description.
 */
export function enumParamValues(m: Pick<RunnableMethod, "parameters">): FlagValue[] {
  return Object.entries(m.parameters).flatMap(([name, spec]) =>
    (enumOf(spec) ?? []).map((v) => ({
      value: JSON.stringify({ [name]: v }),
      description: `${name}: ${(spec.description ?? "").split("\n")[0].trim()}`.replace(/: $/, ""),
    }))
  );
}
