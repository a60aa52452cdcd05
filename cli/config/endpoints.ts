/**
 * Where a brand's services live. `custom` points every service at one origin (the suite emulator, a proxy).
 * Every request there carries a bearer token and the tenant-token mint posts the app secret, so the origin is
 * restricted: https on the suite's own domains, or http(s) on loopback. Any other host is taken only with an
 * explicit confirmation typed at a terminal (`--allow-untrusted-endpoint`), recorded in the profile.
 */
import { errors } from "../output/errors.ts";

export type Brand = "feishu" | "lark" | "custom";

export interface Endpoints {
  /** OpenAPI origin: `/open-apis/...` paths are appended. */
  open: string;
  /** OAuth device authorization origin. */
  accounts: string;
  /** Full URL of the MCP JSON-RPC endpoint. */
  mcp: string;
}

const BRANDS: Record<Exclude<Brand, "custom">, Endpoints> = {
  feishu: {
    open: "https://open.feishu.cn",
    accounts: "https://accounts.feishu.cn",
    mcp: "https://mcp.feishu.cn/mcp",
  },
  lark: {
    open: "https://open.larksuite.com",
    accounts: "https://accounts.larksuite.com",
    mcp: "https://mcp.larksuite.com/mcp",
  },
};

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The suite's production and staging (BOE) domains: their https origins may receive credentials without
 * confirmation. Exact domain or a subdomain; `evilfeishu.cn` or `feishu.cn.evil.example` match nothing.
 */
export const SUITE_DOMAINS = ["feishu.cn", "larksuite.com", "feishu-boe.cn", "larksuite-boe.com"] as const;

export function isSuiteHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return SUITE_DOMAINS.some((d) => h === d || h.endsWith(`.${d}`));
}

export interface BaseUrlOptions {
  /** The user confirmed, at a terminal, that this host may receive the app's credentials. */
  allowUntrusted?: boolean;
}

export const UNTRUSTED_FLAG = "--allow-untrusted-endpoint";

/**
 * Validates a custom base URL and returns its origin: https on the suite's domains, http(s) on loopback;
 * any other https host only when allowed. Plain http elsewhere is refused even then: the token would travel
 * in clear text.
 */
export function parseBaseUrl(raw: string, opts: BaseUrlOptions = {}): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.validation(`invalid base URL: ${raw}`, {
      hint: "use a full URL such as https://open.feishu.cn, or http://127.0.0.1:PORT for the suite emulator",
    });
  }
  if (url.username || url.password) {
    throw errors.validation(`base URL must not carry credentials: ${url.origin}`, {
      hint: "give the origin only, e.g. https://open.feishu.cn",
    });
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === "http:" && loopback) return url.origin;
  if (url.protocol !== "https:") {
    throw errors.validation(`base URL must use https (http is allowed only on loopback): ${raw}`, {
      hint: "use https://..., or http://127.0.0.1:PORT for the suite emulator",
    });
  }
  if (loopback || isSuiteHost(url.hostname) || opts.allowUntrusted) return url.origin;
  throw errors.validation(
    `base URL ${url.origin} is not on the suite's domains (${SUITE_DOMAINS.join(", ")}) nor on loopback; ` +
      "every request would send it your tokens and app secret",
    {
      hint: `if you trust this host (your own proxy), confirm it at a terminal with ${UNTRUSTED_FLAG}, ` +
        `e.g. larkit config set base-url ${url.origin} ${UNTRUSTED_FLAG}`,
    },
  );
}

/** Whether an origin may receive credentials without a confirmation. */
export function isTrustedOrigin(origin: string): boolean {
  try {
    parseBaseUrl(origin);
    return true;
  } catch {
    return false;
  }
}

export function endpointsFor(brand: Brand, baseUrl?: string, opts: BaseUrlOptions = {}): Endpoints {
  if (brand !== "custom") return BRANDS[brand];
  if (!baseUrl) {
    throw errors.config("brand is custom but no base URL is configured", {
      hint: "larkit config set base-url <url>",
    });
  }
  const origin = parseBaseUrl(baseUrl, opts);
  return { open: origin, accounts: origin, mcp: `${origin}/mcp` };
}
