/**
 * Where a brand's services live. `custom` points every service at one origin (the suite emulator, a proxy);
 * only https is accepted there, except on loopback, so a typo cannot send credentials over plain http.
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

/** Validates a custom base URL: https anywhere, http only on loopback; returns its origin. */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.validation(`invalid base URL: ${raw}`, {
      hint: "use a full URL such as https://open.example.com",
    });
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    return url.origin;
  }
  throw errors.validation(`base URL must use https (http is allowed only on loopback): ${raw}`, {
    hint: "use https://..., or http://127.0.0.1:PORT for the suite emulator",
  });
}

export function endpointsFor(brand: Brand, baseUrl?: string): Endpoints {
  if (brand !== "custom") return BRANDS[brand];
  if (!baseUrl) {
    throw errors.config("brand is custom but no base URL is configured", {
      hint: "larkit config set base-url <url>",
    });
  }
  const origin = parseBaseUrl(baseUrl);
  return { open: origin, accounts: origin, mcp: `${origin}/mcp` };
}
