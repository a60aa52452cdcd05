/**
 * A dev relay and an attacking device in a worker thread (relay/device_bounds_test.ts): in production the
 * relay and the devices are other machines, so their CPU must not be the server's event loop's. The worker
 * answers `start` with the relay's URLs, runs `attack` (one device, paired with the code the server gave, opening
 * `streams` streams in a loop that keeps `inFlight` initializes pipelined, as a client with a window does) and
 * reports `{clientId, opened, refused, other}`, and stops the relay on `close`.
 */
import { DevRelay } from "../../relay/dev_relay.ts";
import type { RemoteClient } from "../../relay/remote_client.ts";
import { pairRemoteClient } from "./pair_device.ts";

type Command =
  | { cmd: "start" }
  | { cmd: "attack"; pairingCode: string; streams: number; inFlight: number }
  | { cmd: "close" };

const self = globalThis as unknown as {
  onmessage: (ev: MessageEvent<Command>) => void;
  postMessage: (message: unknown) => void;
};

let relay: DevRelay | undefined;
let attacker: RemoteClient | undefined;

const INIT = { clientInfo: { name: "attacker", version: "1" } };

self.onmessage = async (ev) => {
  const m = ev.data;
  if (m.cmd === "start") {
    relay = DevRelay.start();
    self.postMessage({ baseUrl: relay.baseUrl, pairUrl: relay.pairUrl, clientUrl: relay.clientUrl("") });
  } else if (m.cmd === "attack" && relay) {
    const pairingCode = m.pairingCode;
    attacker = await pairRemoteClient(relay, { pair: () => Promise.resolve({ pairingCode }) });
    const counts = { clientId: attacker.clientId, opened: 0, refused: 0, other: 0 };
    const pending = new Set<Promise<void>>();
    for (let i = 0; i < m.streams; i++) {
      if (pending.size >= m.inFlight) await Promise.race(pending);
      const opened: Promise<void> = attacker.stream(`a-${i}`).request("initialize", INIT).then(
        () => void counts.opened++,
        (e: Error) =>
          void (/too many open streams for this device/.test(e.message) ? counts.refused++ : counts.other++),
      ).finally(() => pending.delete(opened));
      pending.add(opened);
    }
    await Promise.all(pending);
    self.postMessage(counts);
  } else if (m.cmd === "close") {
    attacker?.close();
    await relay?.close();
    self.postMessage({ closed: true });
  }
};
