/**
 * Flag values from the command line, a file or stdin: `-` reads stdin (one flag per run), `@path` reads a
 * file relative to the working directory, `@@text` is the literal `@text`. Then `--params` must be a JSON
 * object and `--data` any JSON; the errors name the flag.
 */
import { INPUT_LIMITS, inputTooLarge, localPaths } from "../input_limits.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";

export interface InputSource {
  p: Provider;
  /** The flag that already took stdin, if any. */
  stdinTakenBy?: string;
}

/** Returns the text a flag value stands for. */
export async function resolveInput(src: InputSource, flag: string, value: string): Promise<string> {
  if (value === "-") {
    if (src.stdinTakenBy) {
      throw errors.validation(`--${flag} and --${src.stdinTakenBy} cannot both read from stdin (-)`, {
        hint: "read one of them from a file with @path",
      });
    }
    src.stdinTakenBy = flag;
    const { readStdinBounded } = await localPaths();
    const text = new TextDecoder().decode(await readStdinBounded(src.p, flag, INPUT_LIMITS.value)).trim();
    if (!text) {
      throw errors.validation(`--${flag}: stdin is empty (did you forget to pipe input?)`);
    }
    return text;
  }
  if (value.startsWith("@@")) return value.slice(1);
  if (value.startsWith("@")) {
    const path = value.slice(1);
    if (!path) throw errors.validation(`--${flag}: file path cannot be empty after @`);
    return await (await localPaths()).readLocalText(src.p, flag, path, INPUT_LIMITS.value);
  }
  if (value.length > INPUT_LIMITS.value) throw inputTooLarge(flag, "the value", INPUT_LIMITS.value);
  return value;
}

/**
 * cmd.exe does not strip single quotes: `--params '{"a":"1"}'` arrives with them. A value wrapped in single
 * quotes is unwrapped before it is read, as the reference CLI does (JSON itself never starts with a quote).
 */
function unquoted(value: string): string {
  return value.length >= 2 && value.startsWith("'") && value.endsWith("'") ? value.slice(1, -1) : value;
}

export async function jsonObjectInput(
  src: InputSource,
  flag: string,
  value: string | undefined,
): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  const text = await resolveInput(src, flag, unquoted(value));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw errors.validation(`--${flag} is not valid JSON: ${e instanceof Error ? e.message : e}`, {
      hint: `e.g. --${flag} '{"key":"value"}', --${flag} @file.json, or --${flag} - to read stdin`,
    });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw errors.validation(`--${flag} must be a JSON object`, { hint: `e.g. --${flag} '{"key":"value"}'` });
  }
  return parsed as Record<string, unknown>;
}

export async function jsonInput(src: InputSource, flag: string, value: string | undefined): Promise<unknown> {
  if (value === undefined) return undefined;
  const text = await resolveInput(src, flag, unquoted(value));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.validation(`--${flag} is not valid JSON: ${e instanceof Error ? e.message : e}`, {
      hint: `e.g. --${flag} '{"key":"value"}', --${flag} @file.json, or --${flag} - to read stdin`,
    });
  }
}

export interface FileInput {
  field: string;
  /** As given, for dry-run (`<stdin>` for `-`). */
  path: string;
  name: string;
  /** Read from stdin (bounded); a file on disk is named by `full` and streamed when sent. */
  bytes?: Uint8Array;
  full?: string;
  size?: number;
}

/** `--file [field=]path`: the default field is the method's single file field, else `file`. */
export function parseFileFlag(value: string, defaultField: string): { field: string; path: string } {
  const at = value.indexOf("=");
  const [field, path] = at > 0 ? [value.slice(0, at), value.slice(at + 1)] : [defaultField, value];
  if (!path) {
    throw errors.validation("--file: empty file path", { hint: "use --file field=path or --file path" });
  }
  return { field, path };
}

export async function readFileInput(
  src: InputSource,
  value: string,
  defaultField: string,
): Promise<FileInput> {
  const { field, path } = parseFileFlag(value, defaultField);
  if (path === "-") {
    if (src.stdinTakenBy) {
      throw errors.validation(`--file and --${src.stdinTakenBy} cannot both read from stdin (-)`);
    }
    src.stdinTakenBy = "file";
    const bytes = await (await localPaths()).readStdinBounded(src.p, "file", INPUT_LIMITS.stdinFile);
    if (bytes.length === 0) throw errors.validation("--file: stdin is empty");
    return { field, path: "<stdin>", name: "stdin", bytes };
  }
  const full = await (await localPaths()).resolveLocalFile(src.p, "file", path);
  const info = await src.p.files.stat(full);
  if (!info?.isFile) throw errors.validation(`--file: cannot read ${path}: not a regular file`);
  return { field, path, name: full.split("/").at(-1) ?? "file", full, size: info.size };
}
