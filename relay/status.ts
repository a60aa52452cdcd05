/**
 * The remote-control status model (disabled | connecting | connected | errored) with the identity fields the
 * `remoteControl/status/*` surface reports. Listeners hear only real changes: duplicates are suppressed.
 */
import type { ErrorSubtype, ErrorType } from "../cli/output/errors.ts";

export type RemoteControlState = "disabled" | "connecting" | "connected" | "errored";

export interface RemoteControlStatus {
  status: RemoteControlState;
  serverName: string;
  installationId: string;
  /** Known once enrolled; null while disabled or without an enrollment. */
  environmentId: string | null;
  /**
   * The last failure while `connecting` (the session keeps retrying) or why it is `errored`; absent once
   * connected or disabled.
   */
  error?: { message: string; hint?: string; type?: ErrorType; subtype?: ErrorSubtype };
}

export type StatusListener = (status: RemoteControlStatus) => void;

export class StatusBoard {
  #current: RemoteControlStatus;
  readonly #listeners = new Set<StatusListener>();

  constructor(initial: RemoteControlStatus) {
    this.#current = initial;
  }

  get current(): RemoteControlStatus {
    return this.#current;
  }

  /**
   * Applies a change (`error: undefined` removes the error); `connected` and `disabled` clear the error,
   * `disabled` the environment id too. Notifies only when something differs.
   */
  update(change: Partial<RemoteControlStatus>): void {
    const next: RemoteControlStatus = { ...this.#current, ...change };
    if (next.error === undefined || next.status === "connected" || next.status === "disabled") {
      delete next.error;
    }
    if (next.status === "disabled") next.environmentId = null;
    if (JSON.stringify(next) === JSON.stringify(this.#current)) return;
    this.#current = next;
    for (const l of this.#listeners) l(next);
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: StatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
