/**
 * `event/subscribe` and `event/unsubscribe`: a connection subscribes one of its threads to the suite's events
 * and receives `event/received` notifications, so a remote client sees what the bot receives. The events come
 * from the app's event hub (the background process `larkit event consume` starts in a terminal); the server
 * only joins a running hub -- subscribing is a read, and no turn or remote client starts a process here.
 *
 * The hub acknowledges an event to the suite once a consumer took it; here that is when the notification was
 * handed to the connection. A connection that went away ends its subscriptions at its next event.
 */
import { LarkitError } from "../cli/output/errors.ts";
import { rpcErrors } from "./errors.ts";
import { DEFAULT_POLICY, forbiddenService, isRemote, type RemotePolicy } from "./policy.ts";
import { defineMethod, type MethodHandler } from "./server.ts";
import type { MethodName } from "./protocol.ts";

export interface EventFilter {
  keys: string[];
  params: Record<string, string>;
}

/** What delivers events to a subscription: the hub client, or a fake in tests. */
export interface EventFeed {
  /**
   * Joins the hub with the filter. `deliver` is awaited per event: true means the client has it (the feed then
   * acknowledges it), false that the subscriber is gone. `ended` reports the feed stopping on its own.
   * Rejects (with a larkit error) when no hub runs.
   */
  subscribe(
    filter: EventFilter,
    sink: { deliver(event: unknown): Promise<boolean>; ended(reason: string): void },
  ): Promise<{ close(): void }>;
}

interface Subscription {
  connectionId: string;
  threadId: string;
  close(): void;
}

/**
 * The two methods, for `createAppServer({ methods })`, and `close()` to end every subscription. The server's
 * remote policy applies as to turns: a remote origin may not subscribe when `event` is a forbidden service.
 */
export function eventMethods(
  feed: EventFeed,
  policy: RemotePolicy = DEFAULT_POLICY,
): { methods: Partial<Record<MethodName, MethodHandler>>; close(): void } {
  const subs = new Map<string, Subscription>();
  let counter = 0;
  const end = (id: string) => {
    const sub = subs.get(id);
    if (!sub) return;
    subs.delete(id);
    sub.close();
  };
  return {
    methods: {
      ...defineMethod("event/subscribe", async (params, ctx) => {
        if (isRemote(ctx.connection.origin, policy) && forbiddenService("event", policy) !== undefined) {
          throw rpcErrors.invalidRequest("events are forbidden for remote connections on this server", {
            type: "authorization",
            hint: "the server runs with --remote-forbid-service event",
          });
        }
        const subscriptionId = `evsub_${++counter}_${ctx.connection.id.slice(0, 8)}`;
        const notify = ctx.notify;
        const { threadId } = params;
        let handle: { close(): void };
        try {
          handle = await feed.subscribe({ keys: params.keys, params: params.params }, {
            async deliver(event) {
              if (!subs.has(subscriptionId)) return false;
              try {
                await notify("event/received", { threadId, subscriptionId, event });
                return true;
              } catch {
                end(subscriptionId);
                return false;
              }
            },
            ended(reason) {
              if (!subs.has(subscriptionId)) return;
              subs.delete(subscriptionId);
              void notify("event/subscription/ended", { threadId, subscriptionId, reason }).catch(() => {});
            },
          });
        } catch (e) {
          if (!(e instanceof LarkitError)) throw e;
          // The larkit error's class and hint travel as data, as the daemon's errors do.
          throw rpcErrors.invalidRequest(e.hint ? `${e.message} (${e.hint})` : e.message, {
            type: e.type,
            subtype: e.subtype,
            hint: e.hint,
          });
        }
        subs.set(subscriptionId, { connectionId: ctx.connection.id, threadId, close: () => handle.close() });
        return { subscriptionId };
      }),
      ...defineMethod("event/unsubscribe", (params, ctx) => {
        const sub = subs.get(params.subscriptionId);
        if (!sub || sub.connectionId !== ctx.connection.id) {
          throw rpcErrors.invalidRequest(`no subscription ${params.subscriptionId} on this connection`);
        }
        end(params.subscriptionId);
        return {};
      }),
    },
    close() {
      for (const id of [...subs.keys()]) end(id);
    },
  };
}
