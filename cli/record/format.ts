/**
 * The recording format: one JSON line per event in `<dir>/session.jsonl`. Exchanges carry what was sent and
 * received with secrets redacted; `uuid` and `clock` lines pin the run's random ids and start time so that a
 * replay produces byte-identical output.
 */
import * as z from "zod";

export const RECORDING_FILE = "session.jsonl";

const headers = z.record(z.string(), z.string());

export const ExchangeLine = z.object({
  kind: z.literal("exchange"),
  seq: z.number().check(z.int(), z.nonnegative()),
  method: z.string(),
  url: z.string(),
  request_headers: headers,
  /** Text bodies as text (JSON/form redacted); binary bodies base64 with `request_body_encoding: "base64"`. */
  request_body: z.optional(z.string()),
  request_body_encoding: z.optional(z.enum(["text", "base64"])),
  status: z.number().check(z.int()),
  response_headers: headers,
  response_body: z.string(),
  response_body_encoding: z.enum(["text", "base64"]),
  duration_ms: z.number().check(z.nonnegative()),
});
export type ExchangeLine = z.infer<typeof ExchangeLine>;

export const UuidLine = z.object({ kind: z.literal("uuid"), value: z.string() });
export const ClockLine = z.object({ kind: z.literal("clock"), start_ms: z.number() });

export const RecordingLine = z.discriminatedUnion("kind", [ExchangeLine, UuidLine, ClockLine]);
export type RecordingLine = z.infer<typeof RecordingLine>;

const SECRET_HEADERS =
  /^(authorization|cookie|set-cookie|x-lark-mcp-uat|x-lark-mcp-tat|proxy-authorization)$/i;
const SECRET_FIELDS =
  /^(token|app_secret|client_secret|access_token|refresh_token|tenant_access_token|app_access_token|user_access_token|password|secret|code|device_code)$/i;

export const REDACTED = "***";

export function redactHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => out[key] = SECRET_HEADERS.test(key) ? REDACTED : value);
  return out;
}

function redactJsonValue(value: unknown, extra: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => redactJsonValue(v, extra));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        (SECRET_FIELDS.test(k) || extra.has(k)) && typeof v === "string"
          ? REDACTED
          : redactJsonValue(v, extra),
      ]),
    );
  }
  return value;
}

/**
 * Redacts a text body by its content type: JSON fields and form fields named like secrets, plus the
 * `extraFields` the config names. Unknown text is kept (it carries no structure to find secrets in).
 */
export function redactBody(text: string, contentType: string, extraFields: string[] = []): string {
  const extra = new Set(extraFields);
  if (contentType.includes("json")) {
    try {
      return JSON.stringify(redactJsonValue(JSON.parse(text), extra));
    } catch {
      return text;
    }
  }
  if (contentType.includes("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    for (const key of [...form.keys()]) {
      if (SECRET_FIELDS.test(key) || extra.has(key)) form.set(key, REDACTED);
    }
    return form.toString();
  }
  return text;
}

export function isTextual(contentType: string): boolean {
  return /json|text|x-www-form-urlencoded|xml|javascript/.test(contentType);
}
