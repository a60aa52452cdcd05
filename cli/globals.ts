/**
 * The global flags, listed once: the root's options in help, the flags the resolver's parse passes over
 * wherever they stand, and the prescan that reads them before any command is resolved (the profile and strict
 * mode decide what a run may resolve) all derive from this list.
 */
import type { Globals } from "./context.ts";
import { errors } from "./output/errors.ts";
import type { Env } from "./provider.ts";

interface GlobalFlag {
  /** The long flag as typed: `--profile`. */
  flag: string;
  /** The value placeholder for flags that take one: `<name>`. */
  value?: string;
  description: string;
}

export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  {
    flag: "--profile",
    value: "<name>",
    description: "config profile to use for this command (env LARKIT_PROFILE)",
  },
  {
    flag: "--user",
    value: "<name|open_id>",
    description: "which logged-in user of the profile acts as the user identity (env LARKIT_USER)",
  },
  { flag: "--debug", description: "log requests and responses on stderr, secrets redacted" },
  { flag: "--quiet", description: "no progress on stderr (shown only on a terminal anyway)" },
  { flag: "--no-color", description: "no ANSI colours on stderr (also NO_COLOR)" },
  { flag: "--offline", description: "never fetch remote registry metadata (env LARKIT_REMOTE_META=off)" },
  {
    flag: "--record",
    value: "<dir>",
    description: "append every HTTP/MCP exchange, secrets redacted, to <dir> (env LARKIT_RECORD)",
  },
  {
    flag: "--replay",
    value: "<dir>",
    description: "answer requests from a recording in <dir>, no network (env LARKIT_REPLAY)",
  },
];

/** The global flags that take a value (`--profile`), and those that do not (`--debug`). */
export const GLOBAL_VALUE_FLAGS: ReadonlySet<string> = new Set(
  GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag),
);
export const GLOBAL_SWITCHES: ReadonlySet<string> = new Set(
  GLOBAL_FLAGS.filter((f) => !f.value).map((f) => f.flag),
);

/** What `-V, --version` prints (without the newline): the root's version option and the run's own answer. */
export const versionText = (version: string): string => `larkit version ${version}`;

/**
 * argv that asks only for the version: `-V`/`--version`, with at most global switches around it: answered
 * before any command node is built.
 */
export function asksOnlyVersion(argv: string[]): boolean {
  return argv.some((a) => a === "-V" || a === "--version") &&
    argv.every((a) => a === "-V" || a === "--version" || GLOBAL_SWITCHES.has(a));
}

/** The global flags as given on the command line, before `--`; environment defaults are applied by the caller. */
export function prescanGlobals(argv: string[], env: Env): Globals {
  const before = argv.indexOf("--") === -1 ? argv : argv.slice(0, argv.indexOf("--"));
  const valueOf = (flag: string, fallback?: string) => {
    let value = fallback || undefined;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === flag) value = before[i + 1];
      else if (before[i].startsWith(`${flag}=`)) value = before[i].slice(flag.length + 1);
    }
    return value;
  };
  return {
    profile: valueOf("--profile", env.get("LARKIT_PROFILE")),
    user: valueOf("--user", env.get("LARKIT_USER")),
    record: valueOf("--record", env.get("LARKIT_RECORD")),
    replay: valueOf("--replay", env.get("LARKIT_REPLAY")),
    debug: before.includes("--debug"),
    quiet: before.includes("--quiet"),
    color: !before.includes("--no-color") && env.get("NO_COLOR") === undefined,
    offline: before.includes("--offline"),
  };
}

/** Recording and replaying read and write files of this machine: a host's run (a turn) may not ask for them. */
export function refuseHostFlags(given: Pick<Globals, "record" | "replay">): void {
  const flag = given.record !== undefined ? "--record" : given.replay !== undefined ? "--replay" : undefined;
  if (flag) {
    throw errors.permission(`${flag} cannot be used inside an agent-server turn`, {
      hint: "it reads or writes files on the server's machine; record in a terminal instead",
    });
  }
}
