/**
 * What a route hands back, before it becomes bytes: the suite's `{code, msg, data}` envelope, an OAuth-style
 * error, or a raw response (downloads, HTML). The server adds `x-tt-logid` and the `error.log_id` of failures.
 */

export type Reply =
  | {
    kind: "suite";
    status: number;
    code: number;
    msg: string;
    data?: unknown;
    error?: Record<string, unknown>;
  }
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "raw"; status: number; body: BodyInit | null; headers: Record<string, string> };

export function isReply(x: unknown): x is Reply {
  const kind = (x as { kind?: unknown }).kind;
  return kind === "suite" || kind === "json" || kind === "raw";
}

export function ok(data?: unknown): Reply {
  return { kind: "suite", status: 200, code: 0, msg: "success", data: data ?? {} };
}

export function fail(
  status: number,
  code: number,
  msg: string,
  error: Record<string, unknown> = {},
): Reply {
  return { kind: "suite", status, code, msg, error };
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return { kind: "json", status, body, headers };
}

/**
 * A failure raised deep inside a handler (a lookup that misses, a body that does not parse). The router
 * catches it and sends its reply, so handlers read top to bottom without threading results through.
 */
export class ReplyError extends Error {
  constructor(readonly reply: Reply) {
    super(reply.kind === "suite" ? reply.msg : "emulator reply");
  }
}

export function raise(status: number, code: number, msg: string, error?: Record<string, unknown>): never {
  throw new ReplyError(fail(status, code, msg, error));
}

/** The suite's generic parameter failure (99992402 "field validation failed"). */
export function invalidParam(detail: string): never {
  return raise(400, 99992402, `field validation failed: ${detail}`, {
    field_violations: [{ description: detail }],
  });
}

export function notFound(code: number, msg: string): never {
  return raise(404, code, msg);
}

/**
 * A stored file as the suite's download: the bytes streamed, its name in Content-Disposition both as a quoted
 * ASCII fallback and as RFC 5987's UTF-8 `filename*`.
 */
export function attachment(stored: { body: ReadableStream<Uint8Array>; size: number }, name: string): Reply {
  return {
    kind: "raw",
    status: 200,
    body: stored.body,
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(stored.size),
      "content-disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; ` +
        `filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  };
}

/** Renders a reply as the HTTP response the suite would send. */
export function render(reply: Reply, logId: string): Response {
  const headers = new Headers({ "x-tt-logid": logId });
  switch (reply.kind) {
    case "suite": {
      headers.set("content-type", "application/json; charset=utf-8");
      const body: Record<string, unknown> = { code: reply.code, msg: reply.msg };
      if (reply.code === 0) body.data = reply.data;
      else body.error = { ...reply.error, log_id: logId };
      return new Response(JSON.stringify(body), { status: reply.status, headers });
    }
    case "json":
      headers.set("content-type", "application/json; charset=utf-8");
      for (const [k, v] of Object.entries(reply.headers ?? {})) headers.set(k, v);
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
    case "raw":
      for (const [k, v] of Object.entries(reply.headers)) headers.set(k, v);
      return new Response(reply.body, { status: reply.status, headers });
  }
}
