/**
 * Raw-HTTP helpers shared by the emulator's own tests: they speak the suite's wire format directly, with no
 * larkit code in between, so the emulator is checked against the public API and not against its client.
 */
export interface SuiteBody {
  code: number;
  msg: string;
  data?: Record<string, unknown>;
  error?: { log_id?: string; permission_violations?: { type: string; subject: string }[] };
}

export async function call(
  url: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: SuiteBody }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json; charset=utf-8";
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() as SuiteBody };
}

export async function form(
  url: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}
