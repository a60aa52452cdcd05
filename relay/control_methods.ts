/**
 * The JSON-RPC control surface of remote control, handed to every app server as extra methods:
 * `remoteControl/enable`, `remoteControl/disable`, `remoteControl/status/read`, the devices
 * (`remoteControl/pairing/start|status`, `remoteControl/client/list|revoke`), and the
 * `remoteControl/status/changed` notification broadcast to every initialized connection on each change.
 * Pairing a new device and revoking one are for local clients only: a remote device does not let others in
 * or lock them out.
 * The shapes are the protocol module's (`rpc/protocol.ts`); the work is the host's `RemoteControl`.
 */
import { type LarkitError, toLarkitError } from "../cli/output/errors.ts";
import { RPC_CODES, RpcError } from "../rpc/errors.ts";
import type { Notify } from "../rpc/protocol.ts";
import { type ConnectionInfo, defineMethod, type MethodContext, type MethodHandler } from "../rpc/server.ts";
import type { ClientListQuery, PairingCode, RemoteDevice } from "./devices.ts";
import type { RemoteControlStatus } from "./status.ts";

export const STATUS_CHANGED = "remoteControl/status/changed";

/** What the methods drive (the host's lazily created session). */
export interface RemoteControlSwitch {
  readonly current: RemoteControlStatus;
  enable(): Promise<RemoteControlStatus>;
  disable(): Promise<RemoteControlStatus>;
  /** A local connection finished `initialize` (its client name keys the enrollment). */
  localClientInitialized(name: string): void;
  pair(opts: { manualCode?: boolean }): Promise<PairingCode>;
  pairingClaimed(code: { pairingCode?: string | null; manualPairingCode?: string | null }): Promise<boolean>;
  listClients(
    q: ClientListQuery & { environmentId?: string | null },
  ): Promise<{ data: RemoteDevice[]; nextCursor: string | null }>;
  revokeClient(clientId: string, environmentId?: string | null): Promise<void>;
}

function localOnly(method: string, ctx: MethodContext): void {
  if (ctx.connection.origin === "RemoteControl") {
    throw new RpcError(RPC_CODES.invalidRequest, `${method} is not available to remote-control connections`);
  }
}

/** Runs a device call, turning larkit errors into JSON-RPC errors that keep their type, subtype and hint. */
async function rpcCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw rpcErrorOf(e);
  }
}

/** The wire shape of status (reads, enable/disable results and the change notification). */
export function statusView(s: RemoteControlStatus) {
  return {
    status: s.status,
    serverName: s.serverName,
    installationId: s.installationId,
    environmentId: s.environmentId,
    ...(s.error ? { error: s.error } : {}),
  };
}

function rpcErrorOf(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  const err: LarkitError = toLarkitError(e);
  return new RpcError(RPC_CODES.invalidRequest, err.message, {
    type: err.type,
    subtype: err.subtype,
    hint: err.hint,
  });
}

export class RemoteControlMethods {
  readonly #switch: RemoteControlSwitch;

  constructor(sw: RemoteControlSwitch) {
    this.#switch = sw;
  }

  /**
   * Sends the current status to a connection that just initialized, after its `initialize` response: the
   * server queues that response once this returns, and a zero-delay timer runs only after it is queued.
   */
  readonly onInitialized = (connection: ConnectionInfo, notify: Notify): void => {
    if (connection.origin !== "RemoteControl" && connection.clientInfo) {
      this.#switch.localClientInitialized(connection.clientInfo.name);
    }
    setTimeout(() => void notify(STATUS_CHANGED, statusView(this.#switch.current)).catch(() => {}), 0);
  };

  handlers(): Record<string, MethodHandler> {
    return {
      ...defineMethod("remoteControl/enable", async () => {
        try {
          return statusView(await this.#switch.enable());
        } catch (e) {
          throw rpcErrorOf(e);
        }
      }),
      ...defineMethod("remoteControl/disable", async () => statusView(await this.#switch.disable())),
      ...defineMethod("remoteControl/status/read", () => statusView(this.#switch.current)),
      ...defineMethod("remoteControl/pairing/start", (params, ctx) => {
        localOnly("remoteControl/pairing/start", ctx);
        return rpcCall(() => this.#switch.pair({ manualCode: params?.manualCode }));
      }),
      ...defineMethod("remoteControl/pairing/status", (params) => {
        if (!params.pairingCode && !params.manualPairingCode) {
          throw new RpcError(RPC_CODES.invalidParams, "pairingCode or manualPairingCode is required");
        }
        return rpcCall(async () => ({ claimed: await this.#switch.pairingClaimed(params) }));
      }),
      ...defineMethod("remoteControl/client/list", (params) =>
        rpcCall(() =>
          this.#switch.listClients({
            environmentId: params?.environmentId,
            cursor: params?.cursor,
            limit: params?.limit,
            order: params?.order,
          })
        )),
      ...defineMethod("remoteControl/client/revoke", (params, ctx) => {
        localOnly("remoteControl/client/revoke", ctx);
        return rpcCall(async () => {
          await this.#switch.revokeClient(params.clientId, params.environmentId);
          return {};
        });
      }),
    };
  }
}
