/**
 * The JSON-RPC control surface of remote control, handed to the app server as extra methods:
 * `remoteControl/enable`, `remoteControl/disable`, `remoteControl/status/read`, and the
 * `remoteControl/status/changed` notification broadcast to every initialized connection on each change.
 * The methods exist before the session does (the session needs the app server), hence `attach`.
 */
import { z } from "zod";
import { type LarkitError, toLarkitError } from "../cli/output/errors.ts";
import { RPC_CODES, RpcError } from "../rpc/errors.ts";
import { experimental, type MethodHandler, parseParams } from "../rpc/server.ts";
import type { RemoteControlSession } from "./session.ts";
import type { RemoteControlStatus } from "./status.ts";

export const STATUS_CHANGED = "remoteControl/status/changed";

const NoParams = z.object({}).nullish();

/** The wire shape of status (reads, enable/disable results and the change notification). */
export function statusView(s: RemoteControlStatus): Record<string, unknown> {
  const view: Record<string, unknown> = {
    status: s.status,
    serverName: s.serverName,
    installationId: s.installationId,
    environmentId: s.environmentId,
  };
  if (s.error) view.error = s.error;
  return view;
}

function rpcErrorOf(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  const err: LarkitError = toLarkitError(e);
  return new RpcError(RPC_CODES.invalidRequest, err.message, { type: err.type, hint: err.hint });
}

export class RemoteControlMethods {
  #session: RemoteControlSession | undefined;
  readonly #unavailable: RemoteControlStatus;

  /** `unavailable` is what status/read reports while no session is attached (no state database). */
  constructor(unavailable: RemoteControlStatus) {
    this.#unavailable = unavailable;
  }

  /** Connects the session and starts broadcasting its status changes. */
  attach(session: RemoteControlSession, broadcast: (method: string, params: unknown) => Promise<void>): void {
    this.#session = session;
    session.status.subscribe((s) => void broadcast(STATUS_CHANGED, statusView(s)).catch(() => {}));
  }

  /** Sends the current status to a connection that just initialized. */
  readonly onInitialized = (
    _c: unknown,
    notify: (method: string, params?: unknown) => Promise<void>,
  ): void => {
    void notify(STATUS_CHANGED, statusView(this.#status())).catch(() => {});
  };

  handlers(): Record<string, MethodHandler> {
    return {
      "remoteControl/enable": experimental("remoteControl/enable", async (params) => {
        parseParams(NoParams, params);
        const session = this.#session;
        if (!session) {
          throw new RpcError(
            RPC_CODES.invalidRequest,
            "remote control cannot be enabled because the state database is unavailable",
          );
        }
        try {
          return statusView(await session.enable());
        } catch (e) {
          throw rpcErrorOf(e);
        }
      }),
      "remoteControl/disable": experimental("remoteControl/disable", async (params) => {
        parseParams(NoParams, params);
        return statusView(this.#session ? await this.#session.disable() : this.#unavailable);
      }),
      "remoteControl/status/read": experimental("remoteControl/status/read", (params) => {
        parseParams(NoParams, params);
        return statusView(this.#status());
      }),
    };
  }

  #status(): RemoteControlStatus {
    return this.#session?.status.current ?? this.#unavailable;
  }
}
