/**
 * Token endpoints: tenant/app access tokens from app credentials, the OAuth device authorization (accounts
 * origin), the v2 token endpoint (device_code and refresh_token grants) and the logged-in user's info.
 */
import * as z from "zod";
import {
  appSecretMatches,
  issueTenantToken,
  pollDevice,
  refreshUserTokens,
  startDeviceAuthorization,
} from "../auth.ts";
import { one } from "../db.ts";
import { fail, json, ok, type Reply } from "../reply.ts";
import { formBody, jsonBody, type RequestCtx, type Route } from "../router.ts";
import { USER_INFO } from "../scopes.ts";
import { TENANT_KEY } from "../fixtures.ts";

const AppCredentials = z.object({
  app_id: z.string().check(z.minLength(1)),
  app_secret: z.string().check(z.minLength(1)),
});

function appTokenReply(ctx: RequestCtx, withAppToken: boolean): Reply {
  const { app_id, app_secret } = jsonBody(ctx, AppCredentials);
  const check = appSecretMatches(ctx.st, app_id, app_secret);
  if (check === "unknown_app") return fail(400, 10003, "invalid param: app_id not found");
  if (check === "bad_secret") return fail(400, 10014, "app secret invalid");
  const { token, expire } = issueTenantToken(ctx.st, app_id);
  // These two endpoints answer at the top level, not under `data`.
  const body: Record<string, unknown> = { code: 0, msg: "ok", tenant_access_token: token, expire };
  if (withAppToken) body.app_access_token = token;
  return json(body);
}

function oauthError(error: string, description: string, status = 400, code?: number): Reply {
  return json(
    code === undefined
      ? { error, error_description: description }
      : { code, error, error_description: description },
    status,
  );
}

/**
 * The client's app id when its secret matches, else undefined. Client credentials come as form fields or HTTP
 * Basic, like any OAuth token endpoint.
 */
function authenticatedClient(ctx: RequestCtx, form: { client_id?: string; client_secret?: string }) {
  const basic = ctx.req.headers.get("authorization")?.match(/^Basic\s+(\S+)$/i);
  const [id, ...rest] = basic
    ? new TextDecoder().decode(Uint8Array.fromBase64(basic[1])).split(":")
    : [form.client_id ?? "", form.client_secret ?? ""];
  return appSecretMatches(ctx.st, id, rest.join(":")) === "ok" ? id : undefined;
}

const DeviceAuthorizationForm = z.object({
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
  scope: z._default(z.string(), ""),
});

const TokenForm = z.object({
  grant_type: z.string(),
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
  device_code: z.optional(z.string()),
  refresh_token: z.optional(z.string()),
});

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

export const authRoutes: Route[] = [
  {
    method: "POST",
    path: "/open-apis/auth/v3/tenant_access_token/internal",
    auth: "none",
    handle: (ctx) => appTokenReply(ctx, false),
  },
  {
    method: "POST",
    path: "/open-apis/auth/v3/app_access_token/internal",
    auth: "none",
    handle: (ctx) => appTokenReply(ctx, true),
  },
  {
    method: "POST",
    path: "/oauth/v1/device_authorization",
    auth: "none",
    handle(ctx) {
      const form = formBody(ctx, DeviceAuthorizationForm);
      const clientId = authenticatedClient(ctx, form);
      if (clientId === undefined) return oauthError("invalid_client", "Client authentication failed.", 401);
      return json(startDeviceAuthorization(ctx.st, clientId, form.scope));
    },
  },
  {
    method: "POST",
    path: "/open-apis/authen/v2/oauth/token",
    auth: "none",
    handle(ctx) {
      const form = formBody(ctx, TokenForm);
      if (authenticatedClient(ctx, form) === undefined) {
        return oauthError("invalid_client", "Client authentication failed.", 401, 20002);
      }
      if (form.grant_type === DEVICE_GRANT) {
        const polled = pollDevice(ctx.st, form.device_code ?? "");
        return polled.ok ? json({ code: 0, ...polled.grant }) : oauthError(polled.error, polled.description);
      }
      if (form.grant_type === "refresh_token") {
        const refreshed = refreshUserTokens(ctx.st, form.refresh_token ?? "");
        return refreshed.ok
          ? json({ code: 0, ...refreshed.grant })
          : oauthError("invalid_grant", refreshed.description, 400, refreshed.code);
      }
      return oauthError("unsupported_grant_type", `grant_type ${form.grant_type} is not supported.`);
    },
  },
  {
    method: "GET",
    path: "/open-apis/authen/v1/user_info",
    auth: "token",
    scopes: USER_INFO,
    identities: ["user"],
    handle(ctx) {
      const u = one<Record<string, string>>(
        ctx.st.db,
        "SELECT * FROM users WHERE open_id = ?",
        ctx.caller.openId,
      );
      if (!u) return fail(404, 41050, "user not found");
      return ok({
        name: u.name,
        en_name: u.en_name,
        avatar_url: `${ctx.st.origin}/emulator/avatar/${u.open_id}.png`,
        open_id: u.open_id,
        union_id: u.union_id,
        user_id: u.user_id,
        email: u.email,
        enterprise_email: u.email,
        mobile: u.mobile,
        tenant_key: TENANT_KEY,
      });
    },
  },
];
