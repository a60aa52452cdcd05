/**
 * Memory of the event path over 100,000 events: the emulator pushes, larkit's long connection reassembles and
 * the hub fans out to one consumer on its Unix socket, which acknowledges each. Prints the peak RSS after
 * 10,000 and after 100,000 events and their ratio: flat memory means a ratio near 1 (the hub keeps at most
 * MAX_PENDING unacknowledged events and the last MAX_SEEN ids).
 *
 *   deno run -A --frozen --v8-flags=--expose-gc bench/event_bench.ts [events]
 *
 * With --expose-gc each sample is taken after a full collection, so garbage does not count as growth.
 */
import { join } from "node:path";
import { HubClient } from "../cli/event/client.ts";
import { probeHub } from "../cli/event/protocol.ts";
import { startEmulator } from "../sandbox/server.ts";
import { clock, emulatorHub } from "../tests/helpers/event_hub.ts";

const TOTAL = Number(Deno.args[0] ?? 100_000);
const WINDOW = 500;

const emu = await startEmulator({ seed: false });
const dir = await Deno.makeTempDir({ prefix: "larkit-event-bench-" });
const socket = join(dir, "hub.sock");
const hub = emulatorHub(emu, socket, { pid: Deno.pid, idleMs: 3_600_000 });
const running = hub.run();
while (await probeHub(socket) !== "live") await clock.sleep(5);

const client = await HubClient.connect(socket);
await client.send({ op: "subscribe", keys: [], params: {} });
if ((await client.next())?.op !== "ready") throw new Error("the hub did not get ready");

let received = 0;
const consuming = (async () => {
  while (received < TOTAL) {
    const m = await client.next();
    if (!m) throw new Error(`hub closed after ${received} events`);
    if (m.op !== "event") continue;
    received++;
    await client.send({ op: "ack", event_id: (m.event as { header: { event_id: string } }).header.event_id });
  }
})();

let peak = 0;
let peakAt10k = 0;
const gc = (globalThis as { gc?: () => void }).gc;
const sample = () => {
  gc?.();
  peak = Math.max(peak, Deno.memoryUsage().rss);
};
const started = performance.now();
const body = { message: { chat_id: "oc_bench", content: JSON.stringify({ text: "x".repeat(200) }) } };
for (let i = 0; i < TOTAL; i++) {
  emu.events.publish("im.message.receive_v1", body);
  // Keep at most WINDOW events in flight, as a suite that waits for acknowledgements would.
  while (i - received >= WINDOW) await clock.sleep(1);
  if (i % 5000 === 0) sample();
  if (i === 10_000) peakAt10k = peak;
}
await consuming;
sample();
const seconds = (performance.now() - started) / 1000;
const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
console.log(`events: ${TOTAL}, ${Math.round(TOTAL / seconds)} events/s`);
console.log(`peak RSS after 10,000: ${mib(peakAt10k || peak)} MiB; after ${TOTAL}: ${mib(peak)} MiB`);
console.log(`ratio ${(peak / (peakAt10k || peak)).toFixed(2)} (near 1: memory stays flat)`);

client.close();
hub.stop("bench over");
await running;
await emu.stop();
await Deno.remove(dir, { recursive: true });
