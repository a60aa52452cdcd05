/**
 * How much a flag may read whole, apart from the path rule (`local_paths.ts`): every value is checked against
 * these, while only a value read from a file or stdin needs the path rule's module, which `localPaths` loads
 * then (start-up, issue 17).
 */
import { lazy } from "./lazy.ts";
import { errors } from "./output/errors.ts";

/** The path rule, loaded for the first flag that reads or writes a local file or stdin. */
export const localPaths = () => lazy("cli/local_paths.ts");

const MiB = 1024 * 1024;

/**
 * What a flag may read whole into memory, checked before reading (the README's input limits): a flag value from
 * `@file` or stdin (`--params`, `--data`, `--markdown`, ...), a file upload from stdin (`--file -`; a path streams
 * from disk) and the app secret from stdin. Anything larger is a `validation` error naming the limit.
 */
export const INPUT_LIMITS = { value: 20 * MiB, stdinFile: 20 * MiB, secret: 4096 } as const;

export function inputTooLarge(flag: string, source: string, limit: number) {
  const size = limit >= MiB ? `${limit / MiB} MiB` : `${limit} bytes`;
  return errors.validation(`--${flag}: ${source} is larger than the ${size} limit`, {
    hint:
      "pass a smaller input (larkit reads flag values whole; files to upload stream from a path with --file)",
    detail: { limit_bytes: limit },
  });
}
