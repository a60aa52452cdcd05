/**
 * What `cli/vendor/zod/zod.js` is bundled from (`deno task vendor:zod`), and the types that bundle declares
 * (`@ts-self-types`): zod/mini, the functional API of the locked zod, reduced to the functions larkit calls.
 *
 * Why mini and why a list: the bundle of all of zod classic cost each run that crosses a boundary ~24 ms of start-up
 * (its schemas carry every method, so nothing can be left out); zod/mini's functions are separate exports, so a
 * bundle of only these is a fraction of that (issue 17). A function missing here fails type-checking
 * (`has no exported member`), not a run: add it to the list and run `deno task vendor:zod`.
 */
import { config } from "zod-npm/mini";
import en from "zod-npm/v4/locales/en.js";

// zod/mini loads no locale of its own: without this every issue would read "Invalid input".
config(en());

export {
  _default,
  array,
  boolean,
  catchall,
  coerce,
  discriminatedUnion,
  email,
  enum,
  extend,
  int,
  intersection,
  iso,
  lazy,
  literal,
  looseObject,
  maximum,
  maxLength,
  minimum,
  minLength,
  NEVER,
  nonnegative,
  null,
  nullable,
  nullish,
  number,
  object,
  omit,
  optional,
  partial,
  pick,
  pipe,
  positive,
  prettifyError,
  record,
  refine,
  regex,
  startsWith,
  strictObject,
  string,
  transform,
  union,
  unknown,
} from "zod-npm/mini";
export { $ZodError } from "zod-npm/v4/core";
export type { infer, input, output, ZodMiniType } from "zod-npm/mini";
export type * as core from "zod-npm/v4/core";
