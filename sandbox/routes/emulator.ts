/**
 * EMULATOR-ONLY endpoints, all under `/emulator/`: nothing like them exists on the real suite. They stand in
 * for the person at the browser during the device flow: a verification page with Approve/Deny buttons, and
 * JSON endpoints a script can call instead.
 */
import * as z from "zod";
import { decideDevice, deviceByUserCode } from "../auth.ts";
import { json, type Reply } from "../reply.ts";
import type { RequestCtx, Route } from "../router.ts";

const Decision = z.object({
  user_code: z.string().check(z.minLength(1)),
  open_id: z.optional(z.string()),
  scope: z.optional(z.string()),
});

function decisionOf(ctx: RequestCtx): z.infer<typeof Decision> | undefined {
  const text = new TextDecoder().decode(ctx.bytes);
  const type = ctx.req.headers.get("content-type") ?? "";
  let raw: unknown;
  try {
    raw = type.includes("application/json")
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
  } catch {
    return undefined;
  }
  const parsed = Decision.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, status = 200): Reply {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:sans-serif;max-width:32em;margin:3em auto"><p><b>larkit sandbox</b> \u2014 emulator only, ` +
    `not the real suite</p>${body}</body></html>`;
  return { kind: "raw", status, body: html, headers: { "content-type": "text/html; charset=utf-8" } };
}

function decide(approve: boolean) {
  return (ctx: RequestCtx): Reply => {
    const d = decisionOf(ctx);
    if (!d) return json({ ok: false, error: "user_code is required" }, 400);
    const done = approve
      ? decideDevice(ctx.st, d.user_code, {
        approve: true,
        userOpenId: d.open_id,
        scopes: d.scope?.split(/\s+/).filter(Boolean),
      })
      : decideDevice(ctx.st, d.user_code, { approve: false });
    const form = !(ctx.req.headers.get("content-type") ?? "").includes("application/json");
    if (form) {
      return page(
        done ? "Done" : "Not found",
        done
          ? `<p>${approve ? "Approved" : "Denied"}. You can close this page.</p>`
          : "<p>Unknown or settled code.</p>",
        done ? 200 : 404,
      );
    }
    return done
      ? json({ ok: true })
      : json({ ok: false, error: "unknown, expired or already settled code" }, 404);
  };
}

export const emulatorRoutes: Route[] = [
  {
    method: "GET",
    path: "/emulator/verify",
    auth: "none",
    handle(ctx) {
      const code = ctx.query.get("user_code") ?? "";
      const d = code ? deviceByUserCode(ctx.st, code) : undefined;
      if (!d) return page("Unknown code", "<p>Unknown user code.</p>", 404);
      const hidden = `<input type="hidden" name="user_code" value="${escapeHtml(d.user_code)}">`;
      return page(
        "Authorize larkit",
        `<p>Code <b>${escapeHtml(d.user_code)}</b> asks for: <code>${
          escapeHtml(d.scopes || "(no scopes)")
        }</code></p>` +
          `<p>Status: ${escapeHtml(d.status)}</p>` +
          `<form method="post" action="/emulator/device/approve">${hidden}<button>Approve</button></form>` +
          `<form method="post" action="/emulator/device/deny">${hidden}<button>Deny</button></form>`,
      );
    },
  },
  { method: "POST", path: "/emulator/device/approve", auth: "none", handle: decide(true) },
  { method: "POST", path: "/emulator/device/deny", auth: "none", handle: decide(false) },
];
