/**
 * Per-test fault switches. Each switch fires a fixed number of times on matching paths, in the order they were
 * set, so a test states exactly which requests fail -- no randomness, nothing global between emulators.
 */

export interface PathMatch {
  /** Only requests whose path starts with this; every path when absent. */
  path?: string;
}

export interface RateLimitFault extends PathMatch {
  times: number;
  retryAfterSeconds: number;
}

export interface ServerErrorFault extends PathMatch {
  times: number;
  status: 500 | 502 | 503;
  retryAfterSeconds?: number;
}

export interface DelayFault extends PathMatch {
  ms: number;
  /** How many requests to slow down; every matching request while set when absent. */
  times?: number;
}

export interface DropConnectionFault extends PathMatch {
  times: number;
  /** "after-handling": the write is applied and stored, then the response is lost. */
  after: "before-handling" | "after-handling";
}

export interface CutBodyFault extends PathMatch {
  times: number;
  /** Bytes of the body sent before the connection is torn down. */
  afterBytes: number;
}

export interface FaultSwitches {
  rateLimit(f: RateLimitFault): void;
  serverError(f: ServerErrorFault): void;
  delay(f: DelayFault): void;
  dropConnection(f: DropConnectionFault): void;
  /** The request is handled and its body starts, then the connection is torn down (a cut-off download). */
  cutBody(f: CutBodyFault): void;
  clear(): void;
}

export type Fault =
  | { kind: "rateLimit"; retryAfterSeconds: number }
  | { kind: "serverError"; status: 500 | 502 | 503; retryAfterSeconds?: number }
  | { kind: "dropConnection"; after: "before-handling" | "after-handling" }
  | { kind: "cutBody"; afterBytes: number };

interface Armed {
  fault: Fault;
  path?: string;
  left: number;
}

function matches(path: string | undefined, requestPath: string): boolean {
  return path === undefined || requestPath.startsWith(path);
}

/** The switches plus what the server asks of them for each request. */
export class FaultBoard implements FaultSwitches {
  #armed: Armed[] = [];
  #delays: { ms: number; path?: string; left: number }[] = [];

  rateLimit(f: RateLimitFault): void {
    this.#armed.push({
      fault: { kind: "rateLimit", retryAfterSeconds: f.retryAfterSeconds },
      path: f.path,
      left: f.times,
    });
  }
  serverError(f: ServerErrorFault): void {
    this.#armed.push({
      fault: { kind: "serverError", status: f.status, retryAfterSeconds: f.retryAfterSeconds },
      path: f.path,
      left: f.times,
    });
  }
  delay(f: DelayFault): void {
    this.#delays.push({ ms: f.ms, path: f.path, left: f.times ?? Infinity });
  }
  dropConnection(f: DropConnectionFault): void {
    this.#armed.push({ fault: { kind: "dropConnection", after: f.after }, path: f.path, left: f.times });
  }
  cutBody(f: CutBodyFault): void {
    this.#armed.push({ fault: { kind: "cutBody", afterBytes: f.afterBytes }, path: f.path, left: f.times });
  }
  clear(): void {
    this.#armed = [];
    this.#delays = [];
  }

  /** The first armed fault matching this path, spending one of its times. */
  take(path: string): Fault | undefined {
    const hit = this.#armed.find((a) => a.left > 0 && matches(a.path, path));
    if (!hit) return undefined;
    hit.left--;
    return hit.fault;
  }

  /** Total delay for this request, spending one of each matching delay's times. */
  delayFor(path: string): number {
    let ms = 0;
    for (const d of this.#delays) {
      if (d.left > 0 && matches(d.path, path)) {
        d.left--;
        ms += d.ms;
      }
    }
    return ms;
  }
}

/** HTTP 429 with the suite's rate-limit code and gateway headers. */
export function rateLimitedResponse(retryAfterSeconds: number, logId: string): Response {
  return new Response(JSON.stringify({ code: 99991400, msg: "request trigger frequency limit" }), {
    status: 429,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-tt-logid": logId,
      "retry-after": String(retryAfterSeconds),
      "x-ogw-ratelimit-limit": "50",
      "x-ogw-ratelimit-reset": String(retryAfterSeconds),
    },
  });
}

/** A 500 from the service answers in JSON; 502/503 come from the gateway as plain text, as on the suite. */
export function serverErrorResponse(
  status: 500 | 502 | 503,
  logId: string,
  retryAfterSeconds?: number,
): Response {
  const headers: Record<string, string> = { "x-tt-logid": logId };
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  if (status === 500) {
    headers["content-type"] = "application/json; charset=utf-8";
    return new Response(JSON.stringify({ code: 1, msg: "internal server error" }), { status, headers });
  }
  headers["content-type"] = "text/plain; charset=utf-8";
  return new Response(status === 502 ? "Bad Gateway" : "Service Unavailable", { status, headers });
}

/**
 * A response whose body fails mid-flight: the connection is torn down after the status line, so the client's
 * read fails with a network error and it never learns the result.
 */
export function droppedResponse(logId: string): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      // An AbortError tears the connection down without Deno logging it as a server failure.
      controller.error(new DOMException("emulator: connection dropped by fault switch", "AbortError"));
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json", "x-tt-logid": logId },
  });
}

/** The response with its body cut after `afterBytes`: the connection is torn down mid-body, as a network would. */
export function cutBodyResponse(res: Response, afterBytes: number): Response {
  const reader = res.body?.getReader();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (!next.done && sent + next.value.length <= afterBytes) {
        sent += next.value.length;
        controller.enqueue(next.value);
        return;
      }
      if (!next.done && afterBytes > sent) controller.enqueue(next.value.subarray(0, afterBytes - sent));
      sent = afterBytes;
      await reader?.cancel();
      // Errored after some bytes went out: the client sees its read fail partway, never a clean end.
      controller.error(new DOMException("emulator: body cut off by fault switch", "AbortError"));
    },
  });
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(body, { status: res.status, headers });
}
