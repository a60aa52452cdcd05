/**
 * Suite business codes -> larkit error types (lark-cli's classification, so agents that know it feel at home).
 * Pure: takes what the suite said, returns the error value.
 */
import { type ErrorSubtype, type LarkitError, larkitError, scopeConsoleUrl } from "../output/errors.ts";

const AUTH_CODES = new Set([99991661, 99991671, 99991668, 99991663, 99991677]);
/** The token was well-formed but refused (invalid 99991663/99991668, expired 99991677): another may work. */
const REJECTED_TOKEN_CODES = new Set([99991663, 99991668, 99991677]);

export function isRejectedToken(code: unknown): boolean {
  return typeof code === "number" && REJECTED_TOKEN_CODES.has(code);
}
const PERMISSION_CODES = new Set([99991672, 99991676, 99991679, 230027]);
const APP_STATUS_CODES = new Set([99991662, 99991673]);

export interface SuiteFailure {
  code: number;
  msg: string;
  status: number;
  logId?: string;
  /** The response's `error` object: log_id, permission_violations, troubleshooter. */
  error?: unknown;
  identity?: "user" | "bot";
  /** The app and its OpenAPI origin: an app scope's console link is built from them. */
  app?: { appId?: string; open: string };
  /** Repeating the request cannot do the work twice (a 5xx is then safe to re-run). */
  idempotent?: boolean;
  /** The identities the command supports: a permission hint offers the other one only when it is here. */
  identities?: ("user" | "bot")[];
}

function violatedScopes(error: unknown): string[] {
  const v = (error as { permission_violations?: { subject?: unknown }[] } | undefined)?.permission_violations;
  return Array.isArray(v) ? v.map((x) => x.subject).filter((s): s is string => typeof s === "string") : [];
}

function classify(code: number, status: number): ErrorSubtype {
  if (AUTH_CODES.has(code)) return "auth";
  // The suite's security policy (the reference's challenge_required / access_denied).
  if (code === 21000) return "challenge_required";
  if (code === 21001) return "access_denied";
  if (PERMISSION_CODES.has(code)) return "permission";
  if (APP_STATUS_CODES.has(code)) return "app_status";
  if (code === 99991543 || code === 10014) return "config";
  if (code === 99991400 || status === 429) return "rate_limit";
  if (code === 1061045) return "conflict";
  if (status === 404) return "not_found";
  return "api_error";
}

export function loginCommand(scopes: string[] = []): string {
  return scopes.length ? `larkit auth login --scope "${scopes.join(" ")}"` : "larkit auth login";
}

export function suiteError(f: SuiteFailure): LarkitError {
  const type = classify(f.code, f.status);
  const scopes = violatedScopes(f.error);
  // A server-side failure did nothing the caller can rely on; re-running is safe when repeating the request is.
  const retryable = f.status >= 500 ? f.idempotent === true : undefined;
  const extra = { code: f.code, log_id: f.logId, detail: f.error, retryable };
  switch (type) {
    case "auth":
      return larkitError(type, `access token rejected: [${f.code}] ${f.msg}`, {
        ...extra,
        hint: f.identity === "bot"
          ? "check the app credentials: larkit config show; then retry"
          : `log in again: ${loginCommand()}`,
      });
    case "permission": {
      const which = scopes.length ? `required scope ${scopes.join(", ")}` : "a required scope is not granted";
      const offers = (other: "user" | "bot") => !f.identities || f.identities.includes(other);
      const hint = f.identity === "user"
        ? `grant it by logging in again: ${loginCommand(scopes)}${
          offers("bot") ? "; or run the command --as bot" : ""
        }`
        : `ask the app admin to enable ${scopes.join(", ") || "the scope"} in the developer console${
          offers("user") ? ", or run --as user" : ""
        }`;
      // App scopes are granted by an admin in the developer console: link the page, as the reference does.
      const console_url = f.identity !== "user" && scopes.length && f.app?.appId
        ? scopeConsoleUrl(f.app.open, f.app.appId, scopes)
        : undefined;
      return larkitError(type, `permission denied: ${which} [${f.code}]`, {
        ...extra,
        hint: console_url ? `${hint} (see console_url)` : hint,
        missing_scopes: scopes,
        console_url,
      });
    }
    case "rate_limit":
      return larkitError(type, `rate limited: [${f.code}] ${f.msg}`, {
        ...extra,
        hint: "wait and retry later",
      });
    case "config":
      return larkitError(type, `app credentials rejected: [${f.code}] ${f.msg}`, {
        ...extra,
        hint: "check app id and secret: larkit config show",
      });
    case "app_status":
      return larkitError(type, `app unavailable: [${f.code}] ${f.msg}`, {
        ...extra,
        hint: "the app is disabled or not installed in this tenant; check the developer console",
      });
    case "challenge_required":
    case "access_denied":
      return larkitError(type, `refused by the suite's security policy: [${f.code}] ${f.msg}`, {
        ...extra,
        hint: "a person must pass the security check in the Lark/Feishu client; then retry",
      });
    default:
      return larkitError(type, `API error: [${f.code}] ${f.msg}`, extra);
  }
}
