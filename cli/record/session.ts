/**
 * `--record <dir>` and `--replay <dir>`: wrap the provider's edges. Recording appends every HTTP/MCP exchange
 * (secrets redacted) plus the run's random ids and start time; replaying serves the recorded responses in order
 * with no network, and the first request that differs from the recording is a `replay_mismatch` error.
 */
import { join } from "node:path";
import { TOKEN_PATH } from "../auth/oauth_token.ts";
import { TENANT_TOKEN_PATH } from "../auth/tenant_token.ts";
import { errors } from "../output/errors.ts";
import { type FetchFn, type Provider, withIOFrom, type Writer } from "../provider.ts";
import {
  type ExchangeLine,
  isTextual,
  RECORDING_FILE,
  RecordingLine,
  redactBody,
  redactHeaders,
} from "./format.ts";

/** Fields whose values change on every run by design; matched loosely on replay. */
const VOLATILE_FIELDS = new Set(["uuid", "client_token", "idempotency_key", "jsonrpc_id"]);

interface NormalRequest {
  method: string;
  url: string;
  body?: unknown;
}

async function bodyOf(
  req: Request,
  extraFields: string[],
): Promise<{ text?: string; encoding?: "text" | "base64" }> {
  if (!req.body) return {};
  const bytes = new Uint8Array(await req.arrayBuffer());
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    return { text: `<multipart ${bytes.length} bytes>`, encoding: "text" };
  }
  if (isTextual(type)) {
    return { text: redactBody(new TextDecoder().decode(bytes), type, extraFields), encoding: "text" };
  }
  return { text: bytes.toBase64(), encoding: "base64" };
}

function sortedUrl(raw: string): string {
  const url = new URL(raw);
  url.searchParams.sort();
  return `${url.pathname}${url.search}`;
}

function normalise(method: string, url: string, body: string | undefined): NormalRequest {
  let parsed: unknown = body;
  if (body !== undefined) {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = body;
    }
  }
  return { method: method.toUpperCase(), url: sortedUrl(url), body: parsed };
}

/** The first difference between two requests as a path and two values, or null when they match. */
export function firstDifference(expected: unknown, actual: unknown, path = "body"): string | null {
  if (expected === actual) return null;
  if (expected && actual && typeof expected === "object" && typeof actual === "object") {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const k of keys) {
      if (VOLATILE_FIELDS.has(k) || (k === "id" && path === "body")) continue;
      const d = firstDifference(
        (expected as Record<string, unknown>)[k],
        (actual as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
    return null;
  }
  return `${path}: recorded ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

export function recordingEdges(p: Provider, dir: string, extraFields: string[] = []): Provider {
  const file = join(dir, RECORDING_FILE);
  let seq = 0;
  // One append at a time, in the order the run drew ids and got answers: appends issued side by side land in
  // whatever order the file system finishes them, which swapped or dropped recorded ids on a loaded machine.
  let written: Promise<void> = Promise.resolve();
  const write = (line: RecordingLine): Promise<void> =>
    written = written.then(() => p.files.appendTextFile(file, JSON.stringify(line) + "\n"));
  // Whatever leaves the run (a request, output) first waits for the recording to hold everything before it,
  // so a finished run has a complete recording and a failed append surfaces as the run's error.
  const afterRecording = (w: Writer): Writer => ({
    isTTY: w.isTTY,
    columns: w.columns,
    write: async (chunk) => {
      await written;
      await w.write(chunk);
    },
  });
  write({ kind: "clock", start_ms: p.clock.now() });
  const fetch: FetchFn = async (input, init) => {
    await written;
    const req = new Request(input, init);
    const sent = await bodyOf(req.clone(), extraFields);
    const t0 = p.clock.now();
    const res = await p.fetch(req);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get("content-type") ?? "";
    const textual = isTextual(type) || bytes.length === 0;
    await write({
      kind: "exchange",
      seq: seq++,
      method: req.method,
      url: req.url,
      request_headers: redactHeaders(req.headers),
      request_body: sent.text,
      request_body_encoding: sent.encoding,
      status: res.status,
      response_headers: redactHeaders(res.headers),
      response_body: textual
        ? redactBody(new TextDecoder().decode(bytes), type, extraFields)
        : bytes.toBase64(),
      response_body_encoding: textual ? "text" : "base64",
      duration_ms: p.clock.now() - t0,
    });
    return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const uuid = () => {
    const value = p.random.uuid();
    write({ kind: "uuid", value });
    return value;
  };
  return withIOFrom({
    ...p,
    fetch,
    random: { ...p.random, uuid },
    stdout: afterRecording(p.stdout),
    stderr: afterRecording(p.stderr),
  });
}

function isTokenRequest(url: string): boolean {
  const path = new URL(url).pathname;
  return path === TENANT_TOKEN_PATH || path === TOKEN_PATH;
}

export async function replayEdges(p: Provider, dir: string, extraFields: string[] = []): Promise<Provider> {
  const file = join(dir, RECORDING_FILE);
  let text: string;
  try {
    text = await p.files.readTextFile(file);
  } catch {
    throw errors.validation(`--replay: no recording at ${file}`, {
      hint: "record one first with --record <dir>",
    });
  }
  const lines = text.split("\n").filter((l) => l.trim()).map((l, i) => {
    const parsed = RecordingLine.safeParse(JSON.parse(l));
    if (!parsed.success) {
      throw errors.validation(`--replay: line ${i + 1} of ${file} is not a recording line`);
    }
    return parsed.data;
  });
  const exchanges = lines.filter((l): l is ExchangeLine => l.kind === "exchange");
  const uuids = lines.flatMap((l) => l.kind === "uuid" ? [l.value] : []);
  const clockLine = lines.find((l) => l.kind === "clock");
  const offset = clockLine?.kind === "clock" ? clockLine.start_ms - p.clock.now() : 0;
  let next = 0;
  const fetch: FetchFn = async (input, init) => {
    const req = new Request(input, init);
    const sent = await bodyOf(req, extraFields);
    // Token requests depend on what the token cache held, not on the command: a recorded one this run does
    // not make (the recording itself cached the token it minted) is passed over.
    while (exchanges[next] && isTokenRequest(exchanges[next].url) && !isTokenRequest(req.url)) next++;
    const want = exchanges[next];
    const got = normalise(req.method, req.url, sent.encoding === "text" ? sent.text : undefined);
    if (!want) {
      throw errors.replayMismatch(`request #${next + 1} (${got.method} ${got.url}) is not in the recording`, {
        hint: "the recording ended earlier; re-record the session",
      });
    }
    const expected = normalise(
      want.method,
      want.url,
      want.request_body_encoding === "text" ? want.request_body : undefined,
    );
    const diff = expected.method !== got.method
      ? `method: recorded ${expected.method}, got ${got.method}`
      : expected.url !== got.url
      ? `url: recorded ${expected.url}, got ${got.url}`
      : firstDifference(expected.body, got.body);
    if (diff) {
      throw errors.replayMismatch(`request #${next + 1} differs from the recording: ${diff}`, {
        hint: "run the same command line, against the same config, as the recorded session",
        detail: {
          seq: want.seq,
          recorded: { method: want.method, url: expected.url },
          got: { method: got.method, url: got.url },
        },
      });
    }
    next++;
    const body = want.response_body_encoding === "base64"
      ? Uint8Array.fromBase64(want.response_body)
      : want.response_body;
    return new Response(want.status === 204 || want.status === 304 ? null : body, {
      status: want.status,
      headers: want.response_headers,
    });
  };
  let u = 0;
  const uuid = () => u < uuids.length ? uuids[u++] : p.random.uuid();
  return withIOFrom({
    ...p,
    fetch,
    random: { ...p.random, uuid },
    clock: { ...p.clock, now: () => p.clock.now() + offset },
  });
}
