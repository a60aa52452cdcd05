/**
 * The vocabulary a command's description shares with its hosts: its layer, what the catalogue says of a flag,
 * a turn policy, and what an agent server's gate is shown of a resolved command (`ResolvedCommand`) and how raw
 * `api`'s operand is read for it. The descriptions themselves are the resolver's nodes (`cli/resolve/node.ts`).
 */

export type Layer = "shortcut" | "api" | "builtin";

export interface FlagMeta {
  type: "string" | "boolean" | "integer" | "string[]" | "json";
  /** Where the value may come from besides the command line: `@file`, `-` (stdin). */
  input?: ("file" | "stdin")[];
  /** The command refuses to run without it (help says "(required)"). */
  required?: boolean;
  /** The value it takes when absent, as help shows it ("(default: text)"). */
  default?: string;
}

/**
 * Whether a command may run inside an agent-server turn, and why. Turns act for a remote or local client with
 * this machine's credentials, so only commands that act on the suite (with approvals for writes) or only read
 * are allowed; anything that changes this machine (config, credentials, daemons, files outside the turn's
 * workspace) is refused before it runs.
 */
export interface TurnPolicy {
  allowed: boolean;
  reason: string;
}

/** What a host learns about a command line once the resolver resolved it, before its action runs. */
export interface ResolvedCommand {
  /** The leaf's path from the root: ["calendar", "+agenda"], ["config", "set"]. */
  path: string[];
  layer: Layer;
  /** The suite service it addresses (first word for services, the path's segment for raw `api`). */
  service?: string;
  /**
   * The host a raw `api` operand names (`https://x/open-apis/...`, `//x/...`): the call goes to the configured
   * endpoint all the same, so a host in the operand is never what it seems; an agent-server turn refuses it.
   */
  host?: string;
  /** Undefined when the command has no classification: hosts must treat that as refused. */
  turn?: TurnPolicy;
}

/** A host's check of the resolved command (the agent server's turn rules); an error refuses it before it runs. */
export type CommandGate = (cmd: ResolvedCommand) => Error | undefined;

/** Puts a resolved command to the host's gate, if there is one; a refusal is thrown, so nothing runs. */
export function admit(gate: CommandGate | undefined, cmd: ResolvedCommand): void {
  const refusal = gate?.(cmd);
  if (refusal) throw refusal;
}

/**
 * What raw `api`'s path operand addresses: the service is the segment after `/open-apis/` of the path the call
 * will use (`normalizeRawPath` drops a URL's scheme and host), read the way a lenient gateway might: slashes
 * merged, percent-decoded, lower-cased, and cut at the first character no service name has (`im;x` is `im`), so
 * neither a URL nor an encoding hides it. `host` is set when the operand names one (a scheme, or `//` in front).
 */
export function apiOperand(operand: string): { service?: string; host?: string } {
  const named = /^(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}([^/\\?#]*)/i.exec(operand) ??
    /^([a-z][a-z0-9+.-]*):/i.exec(operand);
  const path = operand.replace(/^https?:\/\/[^/?#]*/i, "").replace(/\/{2,}/g, "/");
  const segment = /^\/?open-apis\/([^/?#]+)/.exec(path)?.[1];
  let decoded = segment;
  try {
    if (segment !== undefined) decoded = decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding: the call refuses it (`checkApiPath`); judge the segment as written.
  }
  const service = decoded === undefined ? undefined : /^[a-z0-9_-]*/.exec(decoded.toLowerCase())?.[0];
  return { service: service || undefined, ...(named ? { host: named[1] } : {}) };
}

/** A value shell completion offers for a flag, with what it means. */
export interface FlagValue {
  value: string;
  description: string;
}

export const SUITE_TURN: TurnPolicy = {
  allowed: true,
  reason: "acts on the suite through the HTTP client; writes ask the client for approval",
};

/** A builtin that only reads (secrets redacted) may run in a turn. */
export function readOnlyInTurns(reason: string): TurnPolicy {
  return { allowed: true, reason: `read-only: ${reason}` };
}

/** A builtin that changes this machine is refused in turns: run it in a terminal. */
export function refusedInTurns(reason: string): TurnPolicy {
  return { allowed: false, reason: `changes this machine: ${reason}` };
}
