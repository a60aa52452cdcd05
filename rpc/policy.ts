/**
 * What a turn may run and who may approve it. Three layers, checked in this order:
 * 1. The command's own turn policy (`TurnPolicy`, declared with the command and resolved by the CLI after
 *    parsing): only suite commands and read-only ones run in turns; whatever changes this machine is refused.
 * 2. The server's policy for remote origins (`--remote-read-only`, `--remote-forbid-service`): on the resolved
 *    command (an `api` operand naming a host is refused), then on every request it makes (`policyFetch`).
 * 3. Approvals before writes, answered only by connections that may answer (`mayAnswer`).
 * A refusal is a `permission` error envelope from the command, so the client sees the same shape as any failure.
 */
import { apiOperand, type CommandGate } from "../cli/command_meta.ts";
import { errors } from "../cli/output/errors.ts";
import type { Approver, FetchFn } from "../cli/provider.ts";
import type { Origin } from "./connection.ts";
import type { ConnectionInfo } from "./session.ts";

export interface RemotePolicy {
  /** Origins the restrictions below apply to. */
  remoteOrigins: Origin[];
  /** Refuse every write (and high-risk write) from a remote origin, before asking anyone. */
  forbidWrites: boolean;
  /** Services a remote origin may not touch at all, read or write (e.g. ["mail", "drive"]). */
  forbiddenServices: string[];
  /** Remote devices see only the threads they started (`--remote-own-threads`); implied by the two above. */
  ownThreads?: boolean;
}

export const DEFAULT_POLICY: RemotePolicy = {
  remoteOrigins: ["RemoteControl"],
  forbidWrites: false,
  forbiddenServices: [],
};

export function isRemote(origin: Origin, policy: RemotePolicy): boolean {
  return policy.remoteOrigins.includes(origin);
}

/**
 * Whether the operator restricted remote origins at all. Then remote devices are kept apart from local clients
 * and from each other (threads, turns, approvals: `rpc/threads.ts`); without any restriction a remote client
 * continues this machine's threads as a local one does.
 */
export function restrictsRemotes(policy: RemotePolicy): boolean {
  return policy.forbidWrites || policy.forbiddenServices.length > 0 || policy.ownThreads === true;
}

/**
 * The `/open-apis/` segments a service name stands for, where a command group's name is not its API's: an
 * operator forbidding `docs` means the docx API its commands call, `base` the bitable API, and so on.
 */
const API_SEGMENTS: Record<string, string[]> = {
  docs: ["docx", "doc", "docs_ai"],
  base: ["bitable"],
  whiteboard: ["board"],
  slides: ["slides_ai"],
};

/** The forbidden service `service` (a command's first word or an API path's segment) falls under, if any. */
export function forbiddenService(service: string | undefined, policy: RemotePolicy): string | undefined {
  if (service === undefined) return undefined;
  const s = service.toLowerCase();
  return policy.forbiddenServices.find((f) => {
    const name = f.toLowerCase();
    return name === s || (API_SEGMENTS[name] ?? []).includes(s);
  });
}

function serviceRefusal(service: string, origin: Origin, detail = "") {
  return errors.permission(
    `the service "${service}" is not available to ${origin} connections on this server${detail}`,
    { hint: "the server runs with --remote-forbid-service; run it locally instead" },
  );
}

/**
 * The fetch a remote turn runs with when services are forbidden: every request the command really makes is
 * checked by the service of its `/open-apis/<service>/` path, so a shortcut of one service that calls another
 * (a docs command uploading through drive, a `--url` resolved to a wiki node) cannot reach a forbidden one.
 * A refusal is a larkit error, which the HTTP client passes through untouched (no retry).
 */
export function policyFetch(origin: Origin, policy: RemotePolicy, fetch: FetchFn): FetchFn {
  if (!isRemote(origin, policy) || policy.forbiddenServices.length === 0) return fetch;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const { service } = apiOperand(url.pathname);
    // An /open-apis/ path whose service cannot be told is refused rather than guessed.
    const forbidden = service === undefined && /^\/+open-apis(\/|$)/.test(url.pathname)
      ? "(unknown)"
      : forbiddenService(service, policy);
    if (forbidden !== undefined) {
      return Promise.reject(serviceRefusal(forbidden, origin, ` (the command called ${url.pathname})`));
    }
    return fetch(input, init);
  };
}

/** The check a turn's command passes once the CLI resolved it, before anything runs. */
export function turnGate(origin: Origin, policy: RemotePolicy): CommandGate {
  return (cmd) => {
    const name = `\`larkit ${cmd.path.join(" ")}\``;
    if (!cmd.turn) {
      return errors.permission(`${name} has no turn policy, so it cannot run inside an agent-server turn`, {
        hint: "run it in a terminal on this machine",
      });
    }
    if (!cmd.turn.allowed) {
      return errors.permission(`${name} cannot run inside an agent-server turn: ${cmd.turn.reason}`, {
        hint: "run it in a terminal on this machine",
      });
    }
    if (isRemote(origin, policy)) {
      if (cmd.host !== undefined) {
        return errors.permission(
          `${name} names the host "${cmd.host}": a ${origin} turn calls this server's configured suite ` +
            `endpoint by its /open-apis/ path only, so the server's remote policy is checked on what is called`,
          { hint: "give the path alone, e.g. larkit api GET /open-apis/calendar/v4/calendars" },
        );
      }
      const forbidden = forbiddenService(cmd.service, policy);
      if (forbidden !== undefined) return serviceRefusal(forbidden, origin);
    }
    return undefined;
  };
}

/**
 * Wraps the client-asking approver with the server's policy: a forbidden write is refused without asking,
 * an allowed one is put to the client.
 */
export function policyApprover(origin: Origin, policy: RemotePolicy, ask: Approver): Approver {
  return (req) => {
    if (isRemote(origin, policy)) {
      if (policy.forbidWrites) {
        return Promise.reject(
          errors.permission(`writes are not allowed from ${origin} connections on this server`, {
            hint: "the server's policy makes remote clients read-only; run the write locally",
          }),
        );
      }
      const forbidden = forbiddenService(req.service, policy);
      if (forbidden !== undefined) return Promise.reject(serviceRefusal(forbidden, origin));
    }
    return ask(req);
  };
}

/**
 * Who a connection is as the owner of the threads and turns it starts: null for a local origin (local clients
 * share this machine's threads), the device for a remote one (the relay's client id; a remote connection that
 * names no device owns only what it starts itself).
 */
export function ownerOf(
  c: Pick<ConnectionInfo, "id" | "origin" | "device">,
  policy: RemotePolicy,
): string | null {
  if (!isRemote(c.origin, policy)) return null;
  return c.device !== undefined ? `device:${c.device}` : `connection:${c.id}`;
}

/**
 * Whether connection `c` may list, read, continue or interrupt what `owner` started. Local connections reach
 * everything; so does a remote one while the operator restricts nothing (the continue-on-your-phone use).
 * Under any remote policy a remote device reaches only its own: never a local client's thread or turn (whose
 * output may come from a service it may not use), never another device's.
 */
export function mayReach(
  c: Pick<ConnectionInfo, "id" | "origin" | "device">,
  owner: string | null,
  policy: RemotePolicy,
): boolean {
  if (!isRemote(c.origin, policy) || !restrictsRemotes(policy)) return true;
  return owner === ownerOf(c, policy);
}

/**
 * Whether `answerer` may approve a write asked for by a command that `asker` (its origin and owner) started:
 * only initialized connections; never a remote one under `--remote-read-only`; never a remote one for a local
 * client's command (a phone must not approve what a local agent is doing behind the user's back); and under any
 * remote policy, a remote device only for its own commands.
 */
export function mayApprove(
  asker: { origin: Origin; owner: string | null },
  answerer: ConnectionInfo,
  policy: RemotePolicy,
): boolean {
  if (!answerer.initialized) return false;
  if (!isRemote(answerer.origin, policy)) return true;
  if (policy.forbidWrites || !isRemote(asker.origin, policy)) return false;
  return mayReach(answerer, asker.owner, policy);
}
