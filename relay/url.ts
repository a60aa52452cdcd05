/**
 * The relay base URL: normalised (trailing slash) and checked against the allow-list in this one module, since
 * the account token is sent to whatever host it names. https on the suite's production and staging domains
 * and their subdomains; http or https on localhost and loopback literals (tests, the dev relay); nothing else.
 */
import { errors } from "../cli/output/errors.ts";

const ALLOWED_HTTPS_DOMAINS = ["feishu.cn", "larksuite.com", "feishu-staging.cn", "larksuite-staging.com"];

export interface RelayUrls {
  /** The normalised base, always ending in `/`. */
  base: string;
  enroll: string;
  /** Where a new server token is requested (`{server_id, installation_id}`). */
  refresh: string;
  /** ws:// for an http base, wss:// for https; also the enrollment's persistence key. */
  websocket: string;
  /** Where a pairing code is requested with the server token (`{manual_code}`), and `.../pair/status`. */
  pair: string;
  pairStatus: string;
  /** The account's enrolled machines (`GET`, `DELETE .../{environment_id}`) and their devices (`.../clients`). */
  environments: string;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function isAllowedSuiteHost(hostname: string): boolean {
  return ALLOWED_HTTPS_DOMAINS.some((d) => hostname === d || hostname.endsWith(`.${d}`));
}

export function normalizeRelayBaseUrl(input: string): RelayUrls {
  let url: URL;
  try {
    url = new URL(input);
  } catch (e) {
    throw errors.validation(
      `invalid remote control URL \`${input}\`: ${e instanceof Error ? e.message : e}`,
      {
        hint: "use a full URL such as https://open.feishu.cn",
      },
    );
  }
  const allowed =
    (url.protocol === "https:" && (isAllowedSuiteHost(url.hostname) || isLoopback(url.hostname))) ||
    (url.protocol === "http:" && isLoopback(url.hostname));
  if (!allowed || url.username || url.password) {
    throw errors.validation(
      `invalid remote control URL \`${input}\`; expected HTTPS URL for feishu.cn, larksuite.com, ` +
        `feishu-staging.cn or larksuite-staging.com, or HTTP/HTTPS URL for localhost`,
      { hint: "set the relay base URL to an allowed host, or http://127.0.0.1:PORT for `larkit relay dev`" },
    );
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  const base = url.href;
  const server = new URL("backend-api/wham/remote/control/server", base);
  const enroll = `${server.href}/enroll`;
  const refresh = `${server.href}/refresh`;
  const pair = `${server.href}/pair`;
  const environments = new URL("backend-api/wham/remote/control/environments", base).href;
  server.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return { base, enroll, refresh, websocket: server.href, pair, pairStatus: `${pair}/status`, environments };
}
