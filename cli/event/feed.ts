/**
 * The agent server's event feed: each `event/subscribe` becomes one consumer of the app's running hub. It
 * never starts a hub (the server's turns and remote clients must not start processes on this machine); with
 * no hub running, subscribing fails with the command that starts one.
 */
import { errors, larkitError } from "../output/errors.ts";
import { HubClient } from "./client.ts";
import { EventEnvelopeSchema } from "./catalog.ts";
import { probeHub } from "./protocol.ts";

export interface FeedFilter {
  keys: string[];
  params: Record<string, string>;
}

export interface FeedSink {
  deliver(event: unknown): Promise<boolean>;
  ended(reason: string): void;
}

/** `hub` resolves the app's hub socket (it needs the credentials, so it is asked only on first use). */
export function hubFeed(hub: () => Promise<{ appId: string; socket: string }>) {
  return {
    async subscribe(filter: FeedFilter, sink: FeedSink): Promise<{ close(): void }> {
      const { appId, socket } = await hub();
      if (await probeHub(socket) !== "live") {
        throw errors.config(`no event hub runs for app ${appId}`, {
          hint: "start it from a terminal on this machine: larkit event consume <key>",
        });
      }
      const client = await HubClient.connect(socket);
      let closed = false;
      try {
        await client.send({ op: "subscribe", keys: filter.keys, params: filter.params });
        const first = await client.next();
        if (first?.op === "error") {
          throw larkitError(first.type ?? "network", first.message, { hint: first.hint });
        }
        if (first?.op !== "ready") {
          throw errors.network("the event hub closed the connection before it was ready");
        }
      } catch (e) {
        client.close();
        throw e;
      }
      void (async () => {
        let reason = "the event hub stopped";
        try {
          for (let m = await client.next(); m; m = await client.next()) {
            if (m.op === "error") {
              reason = m.message;
              break;
            }
            if (m.op !== "event") continue;
            const event = EventEnvelopeSchema.parse(m.event);
            if (!await sink.deliver(event)) return;
            await client.send({ op: "ack", event_id: event.header.event_id });
          }
        } catch (e) {
          reason = e instanceof Error ? e.message : String(e);
        } finally {
          client.close();
        }
        if (!closed) sink.ended(reason);
      })();
      return {
        close() {
          closed = true;
          client.close();
        },
      };
    },
  };
}
