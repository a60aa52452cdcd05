/**
 * What a turn may run and who may approve it. Three layers, checked in this order:
 * 1. The command's own turn policy (`TurnPolicy`, declared with the command and resolved by the CLI after
 *    parsing): only suite commands and read-only ones run in turns; whatever changes this machine is refused.
 * 2. The server's policy for remote origins (`--remote-read-only`, `--remote-forbid-service`).
 * 3. Approvals before writes, answered only by connections that may answer (`mayAnswer`).
 * A refusal is a `permission` error envelope from the command, so the client sees the same shape as any failure.
 */
import type { CommandGate } from "../cli/command_meta.ts";
import { errors } from "../cli/output/errors.ts";
import type { Approver } from "../cli/provider.ts";
import type { Origin } from "./connection.ts";
import type { ConnectionInfo } from "./session.ts";

export interface RemotePolicy {
  /** Origins the restrictions below apply to. */
  remoteOrigins: Origin[];
  /** Refuse every write (and high-risk write) from a remote origin, before asking anyone. */
  forbidWrites: boolean;
  /** Services a remote origin may not touch at all, read or write (e.g. ["mail", "drive"]). */
  forbiddenServices: string[];
}

export const DEFAULT_POLICY: RemotePolicy = {
  remoteOrigins: ["RemoteControl"],
  forbidWrites: false,
  forbiddenServices: [],
};

export function isRemote(origin: Origin, policy: RemotePolicy): boolean {
  return policy.remoteOrigins.includes(origin);
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
    if (
      isRemote(origin, policy) && cmd.service !== undefined && policy.forbiddenServices.includes(cmd.service)
    ) {
      return errors.permission(
        `the service "${cmd.service}" is not available to ${origin} connections on this server`,
        { hint: "the server's policy forbids it for remote clients; run it locally instead" },
      );
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
      if (req.service !== undefined && policy.forbiddenServices.includes(req.service)) {
        return Promise.reject(
          errors.permission(
            `the service "${req.service}" is not available to ${origin} connections on this server`,
          ),
        );
      }
    }
    return ask(req);
  };
}

/**
 * Whether `answerer` may approve a write asked for by a command that a connection of origin `asker` started:
 * only initialized connections; never a remote one under `--remote-read-only`; and never a remote one for a
 * local client's command (a phone must not approve what a local agent is doing behind the user's back).
 */
export function mayApprove(asker: Origin, answerer: ConnectionInfo, policy: RemotePolicy): boolean {
  if (!answerer.initialized) return false;
  if (!isRemote(answerer.origin, policy)) return true;
  return !policy.forbidWrites && isRemote(asker, policy);
}
