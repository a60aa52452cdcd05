/**
 * `larkit doctor`: health checks in the reference CLI's report shape `{ok, checks:[{name, status, message,
 * hint?}]}`, plus what agents trip over: credentials per identity, token and refresh-token age, clock skew
 * against the suite's `Date` header, API and MCP reachability, registry baseline and overlay age, strict mode.
 * Each check is a small function; `runDoctor` runs them in order and never throws.
 */
import { join } from "node:path";
import type { Account, Identity } from "../auth/types.ts";
import { describeAuth } from "../auth/status.ts";
import { configPath, loadConfig } from "../config/config_file.ts";
import { secretBackend, secretsDir, secretStore } from "../config/secret_store.ts";

/** What the OS keychain is called where larkit runs (`Deno.build.os` names). */
const KEYCHAIN_NAMES: Record<string, string> = {
  darwin: "macOS Keychain",
  windows: "Windows Credential Manager",
  linux: "Secret Service",
};
import type { RunContext } from "../context.ts";
import { toLarkitError } from "../output/errors.ts";
import { openRegistry } from "../../registry/index.ts";
import { readOverlayIndex } from "../../registry/overlay_cache.ts";
import { refreshRegistryOverlay } from "../api_commands/registry_of.ts";

export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export interface Check {
  name: string;
  status: CheckStatus;
  message: string;
  hint?: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: Check[];
}

/** Beyond this the suite rejects signed requests and tokens look expired too early or too late. */
export const SKEW_FAIL_MS = 5 * 60_000;
export const SKEW_WARN_MS = 30_000;
const DAY = 86_400_000;

const check = (name: string, status: CheckStatus, message: string, hint?: string): Check =>
  hint ? { name, status, message, hint } : { name, status, message };

/** Pure: the clock check from our time and the server's `Date` header. */
export function clockSkewCheck(localMs: number, serverDate: string | null): Check {
  if (!serverDate) return check("clock_skew", "warn", "the server sent no Date header; skew unknown");
  const server = Date.parse(serverDate);
  if (Number.isNaN(server)) return check("clock_skew", "warn", `unreadable Date header: ${serverDate}`);
  const skew = localMs - server;
  const text = `local clock is ${Math.abs(Math.round(skew / 1000))} s ${
    skew >= 0 ? "ahead of" : "behind"
  } the server`;
  // The Date header has one-second resolution and the request takes time: small differences are noise.
  if (Math.abs(skew) >= SKEW_FAIL_MS) {
    return check(
      "clock_skew",
      "fail",
      text,
      "synchronise the system clock (e.g. enable NTP); tokens and signatures depend on it",
    );
  }
  if (Math.abs(skew) >= SKEW_WARN_MS) {
    return check("clock_skew", "warn", text, "synchronise the system clock");
  }
  return check("clock_skew", "pass", text);
}

/** Pure: user token state from its timestamps. */
export function userTokenCheck(
  now: number,
  t: { expiresAt?: string; refreshExpiresAt?: string; grantedAt?: string; tokenStatus?: string },
  login: string,
): Check {
  const expires = t.expiresAt ? Date.parse(t.expiresAt) : undefined;
  const refreshExpires = t.refreshExpiresAt ? Date.parse(t.refreshExpiresAt) : undefined;
  const age = t.grantedAt ? Math.floor((now - Date.parse(t.grantedAt)) / DAY) : undefined;
  const ageText = age === undefined ? "" : `; granted ${age} day(s) ago`;
  if (t.tokenStatus === "expired" || (refreshExpires !== undefined && refreshExpires <= now)) {
    return check(
      "token_user",
      "fail",
      `the user token and its refresh token have expired${ageText}`,
      `log in again: ${login}`,
    );
  }
  if (t.tokenStatus === "needs_refresh" || (expires !== undefined && expires <= now)) {
    return check(
      "token_user",
      "pass",
      `access token expired; it will be refreshed on next use (refresh token valid until ${t.refreshExpiresAt})${ageText}`,
    );
  }
  if (refreshExpires !== undefined && refreshExpires - now < DAY) {
    return check(
      "token_user",
      "warn",
      `the refresh token expires within a day (${t.refreshExpiresAt})${ageText}`,
      `log in again soon: ${login}`,
    );
  }
  return check("token_user", "pass", `access token valid until ${t.expiresAt}${ageText}`);
}

async function reach(
  ctx: RunContext,
  name: string,
  url: string,
  method: "GET" | "HEAD",
): Promise<{ c: Check; date: string | null }> {
  try {
    const res = await ctx.http().send(url, { method }, { idempotent: true, label: url });
    await res.body?.cancel();
    return { c: check(name, "pass", `${url} answered HTTP ${res.status}`), date: res.headers.get("date") };
  } catch (e) {
    const err = toLarkitError(e);
    return {
      c: check(
        name,
        "fail",
        `${url} unreachable: ${err.message}`,
        "check the network, proxy, and the configured brand / base URL",
      ),
      date: null,
    };
  }
}

export async function runDoctor(ctx: RunContext, opts: { offline: boolean }): Promise<DoctorReport> {
  const { p } = ctx;
  const checks: Check[] = [check("cli_version", "pass", `larkit version ${p.version}`)];

  try {
    const config = await loadConfig(p);
    checks.push(
      config
        ? check("config_file", "pass", `${configPath(p)} is valid (${config.profiles.length} profile(s))`)
        : check(
          "config_file",
          "warn",
          `no config file at ${configPath(p)}`,
          "larkit config init --app-id <id> --app-secret-stdin (or use LARKIT_* environment variables)",
        ),
    );
  } catch (e) {
    const err = toLarkitError(e);
    checks.push(check("config_file", "fail", err.message, err.hint));
  }

  let account: Account | undefined;
  try {
    account = await ctx.credentials().account();
    const who = account.profile ? `profile "${account.profile}"` : `source ${account.source}`;
    checks.push(
      check(
        "profile",
        "pass",
        `${who}: app ${
          account.appId ?? "(token only)"
        }, brand ${account.brand}, API ${account.endpoints.open}`,
      ),
    );
  } catch (e) {
    const err = toLarkitError(e);
    checks.push(check("profile", "fail", err.message, err.hint));
  }
  if (!account) return finish(checks);

  checks.push(
    check(
      "strict_mode",
      "pass",
      account.strictMode === "off"
        ? "strict mode is off"
        : `strict mode: only the ${account.strictMode} identity may run`,
    ),
  );

  if (account.source === "config") {
    const backend = await secretBackend(p);
    checks.push(
      check(
        "secret_store",
        "pass",
        backend === "keychain"
          ? `app secrets and user tokens in the OS keychain (${KEYCHAIN_NAMES[p.system.os] ?? "keyring"})`
          : `app secrets and user tokens in the encrypted file store ${secretsDir(p)}` +
            " (the OS keychain: larkit config set secret-store keychain)",
      ),
    );
  } else {
    checks.push(check("secret_store", "skip", `credentials come from ${account.source}: none stored here`));
  }

  const identities = await ctx.credentials().identities();
  for (const identity of ["bot", "user"] as Identity[]) {
    const has = identities.includes(identity);
    checks.push(
      check(
        `credentials_${identity}`,
        has ? "pass" : "warn",
        has ? `${identity} credentials are available` : `no ${identity} credentials`,
        has
          ? undefined
          : identity === "user"
          ? "larkit auth login --recommend"
          : "configure the app id and secret: larkit config init",
      ),
    );
  }

  const status = await describeAuth(p, ctx.credentials(), secretStore(p));
  if (status.user && status.tokenStatus) {
    checks.push(
      userTokenCheck(
        p.clock.now(),
        status,
        `larkit${account.profile ? ` --profile ${account.profile}` : ""} auth login --recommend`,
      ),
    );
  } else {
    checks.push(check("token_user", "skip", "no stored user token"));
  }

  // A file's time comes from the file system, ours from the clock: a skew of seconds must not read "-1 day".
  const daysSince = (ms: number) => Math.max(0, Math.floor((p.clock.now() - ms) / DAY));
  let registryVersion = "unknown";
  try {
    registryVersion = (await openRegistry()).version;
    const deps = {
      files: p.files,
      cacheDir: p.paths.cacheDir,
      now: () => p.clock.now(),
      warn: (m: string) => ctx.diag.warn(m),
    };
    const overlay = await readOverlayIndex(deps);
    const stored = await p.files.stat(join(p.paths.cacheDir, "registry", "overlay.json"));
    const age = stored?.mtimeMs === undefined ? "" : ` fetched ${daysSince(stored.mtimeMs)} day(s) ago`;
    const overlayText = overlay ? `; overlay ${overlay.version}${age}` : "; no overlay cached";
    // What `auth login --recommend` asks for comes from this document; a stale one is refreshed by hand.
    const scopes = await p.files.stat(join(p.paths.cacheDir, "registry", "scopes.json"));
    const scopesText = scopes?.mtimeMs === undefined
      ? "; no recommended scopes cached"
      : `; recommended scopes fetched ${daysSince(scopes.mtimeMs)} day(s) ago`;
    checks.push(check("registry", "pass", `baseline ${registryVersion}${overlayText}${scopesText}`));
  } catch (e) {
    checks.push(
      check(
        "registry",
        "fail",
        toLarkitError(e).message,
        "reinstall larkit; the embedded registry is unreadable",
      ),
    );
  }

  if (opts.offline) {
    for (const name of ["endpoint_open", "clock_skew", "endpoint_mcp", "token_verified"]) {
      checks.push(check(name, "skip", "skipped with --offline"));
    }
    return finish(checks);
  }
  const [open, mcp] = await Promise.all([
    reach(ctx, "endpoint_open", `${account.endpoints.open}/open-apis/`, "GET"),
    reach(ctx, "endpoint_mcp", account.endpoints.mcp, "HEAD"),
  ]);
  checks.push(open.c, clockSkewCheck(p.clock.now(), open.date), mcp.c);
  for (const identity of identities) {
    try {
      await ctx.credentials().token(identity);
      checks.push(check(`token_verified_${identity}`, "pass", `a ${identity} token was obtained`));
    } catch (e) {
      const err = toLarkitError(e);
      checks.push(check(`token_verified_${identity}`, "fail", err.message, err.hint));
    }
  }
  checks.push(await overlayRefreshCheck(ctx));
  return finish(checks);
}

/**
 * Doctor is one of the two places that refresh the metadata overlay (ordinary commands never do), when its
 * TTL ran out. Not inside an agent-server turn: that would change this machine's cache for a client.
 */
async function overlayRefreshCheck(ctx: RunContext): Promise<Check> {
  if (ctx.p.approver) return check("registry_refresh", "skip", "not refreshed inside an agent-server turn");
  const result = await refreshRegistryOverlay(ctx, { force: false });
  switch (result) {
    case "updated":
    case "not-modified":
      return check("registry_refresh", "pass", `registry overlay ${result}`);
    case "not-due":
      return check("registry_refresh", "pass", "registry overlay checked recently");
    case "off":
      return check("registry_refresh", "skip", "remote metadata is off (LARKIT_REMOTE_META=off)");
    case "not-configured":
      return check("registry_refresh", "skip", "no suite configured to ask");
    case "failed":
      return check(
        "registry_refresh",
        "warn",
        "the registry overlay could not be downloaded; the cached metadata serves",
        "retry later: larkit registry refresh",
      );
  }
}

function finish(checks: Check[]): DoctorReport {
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}
