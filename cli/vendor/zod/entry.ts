/**
 * What `cli/vendor/zod/zod.js` is bundled from (`deno task vendor:zod`), and the types that bundle declares
 * (`@ts-self-types`): zod's own entry, under the import map's `zod-npm`.
 */
export * from "zod-npm";
export { z, z as default } from "zod-npm";
