/**
 * Every request the emulator received, with secrets redacted, so tests can prove what was (or was not) sent.
 */

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON, form fields, multipart fields (files as name/size), or null when empty. */
  body: unknown;
  /** Filled in when the response is sent; 0 for a dropped connection. */
  status: number;
  /** Emulator clock, ms. */
  at: number;
}

const SECRET_HEADERS = new Set(["authorization", "x-lark-mcp-uat", "x-lark-mcp-tat", "cookie"]);
const SECRET_FIELDS = new Set(["app_secret", "client_secret", "refresh_token", "device_code", "code"]);

export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name)) out[name] = value;
    else out[name] = name === "authorization" ? `${value.split(" ")[0]} <redacted>` : "<redacted>";
  });
  return out;
}

function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? "<redacted>" : v]),
  );
}

export async function describeBody(
  headers: Headers,
  url: URL,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<unknown> {
  if (bytes.length === 0) return null;
  const type = headers.get("content-type") ?? "";
  const text = () => new TextDecoder().decode(bytes);
  if (type.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text());
      return parsed && typeof parsed === "object" && !Array.isArray(parsed)
        ? redactFields(parsed as Record<string, unknown>)
        : parsed;
    } catch {
      return text();
    }
  }
  if (type.includes("application/x-www-form-urlencoded")) {
    return redactFields(Object.fromEntries(new URLSearchParams(text())));
  }
  if (type.includes("multipart/form-data")) {
    try {
      const form = await new Request(url, { method: "POST", headers, body: bytes }).formData();
      const out: Record<string, unknown> = {};
      form.forEach((v, k) => {
        out[k] = typeof v === "string" ? v : { filename: v.name, size: v.size, type: v.type };
      });
      return out;
    } catch {
      return { bytes: bytes.length };
    }
  }
  return type.startsWith("text/") ? text() : { bytes: bytes.length };
}
