/**
 * What a turn may run, by connection origin. Approvals apply to every origin the same way; on top of them the
 * server's policy can forbid writes, or whole services, for remote origins (by default `RemoteControl`). A
 * refusal is a `permission` error envelope from the command, so the client sees the same shape as any failure.
 */
import { errors, type LarkitError } from "../cli/output/errors.ts";
import type { Approver } from "../cli/provider.ts";
import { positionalWords } from "../cli/tree.ts";
import type { Origin } from "./connection.ts";

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

/** Commands that manage this server itself; running them inside a turn would nest servers or leak control. */
const NOT_IN_A_TURN = new Set(["app-server", "remote-control", "relay"]);

/** The service a command line addresses: its first word, or for raw `api` calls the path's service segment. */
export function serviceOf(argv: string[]): string | undefined {
  const words = positionalWords(argv);
  if (words[0] === "api") return /^\/?open-apis\/([^/?]+)/.exec(words[2] ?? "")?.[1];
  return words[0];
}

function isRemote(origin: Origin, policy: RemotePolicy): boolean {
  return policy.remoteOrigins.includes(origin);
}

/** Checked before a command runs: a refusal means nothing is sent anywhere. */
export function refusalBeforeRun(
  argv: string[],
  origin: Origin,
  policy: RemotePolicy,
): LarkitError | undefined {
  const first = positionalWords(argv)[0];
  if (first !== undefined && NOT_IN_A_TURN.has(first)) {
    return errors.permission(`\`larkit ${first}\` cannot run inside an agent-server turn`, {
      hint: "run it in a terminal on this machine",
    });
  }
  const service = serviceOf(argv);
  if (isRemote(origin, policy) && service !== undefined && policy.forbiddenServices.includes(service)) {
    return errors.permission(
      `the service "${service}" is not available to ${origin} connections on this server`,
      {
        hint: "the server's policy forbids it for remote clients; run it locally instead",
      },
    );
  }
  return undefined;
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
