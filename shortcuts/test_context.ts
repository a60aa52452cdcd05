/**
 * For unit tests of the pipeline and of shortcuts: a RunContext over `testProvider()` whose credential chain
 * is a fake (strict mode, granted scopes and identities chosen by the test) and whose network is a recorder
 * answering every OpenAPI call from a handler. No test reaches a real network.
 */
import type { Account, CredentialChain, Identity, StrictMode } from "../cli/auth/types.ts";
import { endpointsFor } from "../cli/config/endpoints.ts";
import { createRunContext, type RunContext } from "../cli/context.ts";
import { createHttpClient, type HttpClient } from "../cli/http/client.ts";
import { errors } from "../cli/output/errors.ts";
import type { Approver } from "../cli/provider.ts";
import { testProvider } from "../cli/test_provider.ts";

export const TEST_ORIGIN = "http://127.0.0.1:1";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface TestRunOptions {
  strictMode?: StrictMode;
  /** Scopes the fake chain reports as granted (both identities); undefined = unknown. */
  granted?: string[];
  identities?: Identity[];
  account?: Partial<Account>;
  configured?: boolean;
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  now?: number;
  argv?: string[];
  approver?: Approver;
  /** Answers an OpenAPI call with the `data` of a success response. */
  respond?: (req: RecordedRequest) => unknown;
}

async function bodyOf(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return await req.json();
  if (type.includes("multipart/form-data")) {
    const form = await req.formData();
    return Object.fromEntries([...form].map(([k, v]) => [k, typeof v === "string" ? v : `<file ${v.name}>`]));
  }
  return undefined;
}

export function testRun(opts: TestRunOptions = {}) {
  const requests: RecordedRequest[] = [];
  const base = testProvider({
    env: { TZ: "UTC", ...opts.env },
    stdin: opts.stdin,
    cwd: opts.cwd,
    now: opts.now === undefined ? undefined : () => opts.now as number,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: await bodyOf(req),
      };
      requests.push(recorded);
      return Response.json({ code: 0, msg: "success", data: opts.respond?.(recorded) ?? {} });
    },
  });
  const p = opts.approver ? base.withIO({ approver: opts.approver }) : base;
  const chain: CredentialChain = {
    account: () => {
      if (opts.configured === false) return Promise.reject(errors.config("not configured"));
      return Promise.resolve({
        source: "test",
        appId: "cli_test",
        brand: "custom",
        endpoints: endpointsFor("custom", TEST_ORIGIN),
        strictMode: opts.strictMode ?? "off",
        ...opts.account,
      });
    },
    token: (identity) => Promise.resolve({ identity, token: `${identity}-token` }),
    identities: () => Promise.resolve(opts.identities ?? ["user", "bot"]),
    grantedScopes: () => Promise.resolve(opts.granted),
  };
  const ctx = createRunContext(p, { debug: false, color: false, offline: true }, opts.argv ?? []);
  let http: HttpClient | undefined;
  const run: RunContext = {
    ...ctx,
    credentials: () => chain,
    http: () => http ??= createHttpClient({ p, credentials: chain, diag: ctx.diag }),
  };
  return { run, requests, out: base.out, err: base.err };
}
