import assert from "node:assert/strict";
import { backoffMs, decideRetry, DEFAULT_RETRY, requestedWaitMs, wasSent } from "./retry.ts";

const base = { attempt: 0, policy: DEFAULT_RETRY, now: 0, random01: 0.5 };
const response = (status: number, headers: Record<string, string> = {}) =>
  ({ kind: "response", status, headers: new Headers(headers) }) as const;

Deno.test("429 is retried for any method after Retry-After", () => {
  assert.deepEqual(decideRetry(response(429, { "retry-after": "2" }), { ...base, idempotent: false }), {
    retry: true,
    delayMs: 2000,
    reason: "HTTP 429",
  });
});

Deno.test("the gateway's x-ogw-ratelimit-reset is honoured when Retry-After is absent", () => {
  assert.equal(requestedWaitMs(new Headers({ "x-ogw-ratelimit-reset": "3" }), 0), 3000);
  assert.equal(requestedWaitMs(new Headers({ "retry-after": new Date(5000).toUTCString() }), 1000), 4000);
});

Deno.test("5xx is retried only when repeating is safe", () => {
  assert.equal(decideRetry(response(503), { ...base, idempotent: true }).retry, true);
  assert.equal(decideRetry(response(503), { ...base, idempotent: false }).retry, false);
  assert.equal(decideRetry(response(400), { ...base, idempotent: true }).retry, false);
});

Deno.test("a lost response of a non-idempotent write is never retried; a failed connect is", () => {
  assert.equal(decideRetry({ kind: "network", sent: true }, { ...base, idempotent: false }).retry, false);
  assert.equal(decideRetry({ kind: "network", sent: false }, { ...base, idempotent: false }).retry, true);
  assert.equal(decideRetry({ kind: "network", sent: true }, { ...base, idempotent: true }).retry, true);
});

Deno.test("retries stop at the budget and when the suite asks for too long a wait", () => {
  assert.equal(decideRetry(response(429), { ...base, attempt: 3, idempotent: true }).retry, false);
  assert.equal(
    decideRetry(response(429, { "retry-after": "3600" }), { ...base, idempotent: true }).retry,
    false,
  );
});

Deno.test("backoff grows exponentially with jitter in [ceiling/2, ceiling]", () => {
  assert.equal(backoffMs(0, DEFAULT_RETRY, 0), 250);
  assert.equal(backoffMs(0, DEFAULT_RETRY, 0.999), 500);
  assert.equal(backoffMs(2, DEFAULT_RETRY, 0), 1000);
  assert.equal(backoffMs(20, DEFAULT_RETRY, 1), DEFAULT_RETRY.maxDelayMs);
});

Deno.test("connect failures are recognised as never sent", () => {
  assert.equal(
    wasSent(new TypeError("error sending request: tcp connect error: Connection refused (os error 111)")),
    false,
  );
  assert.equal(wasSent(new TypeError("connection closed before message completed")), true);
});
