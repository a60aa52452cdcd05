/**
 * Runs an extension credential provider -- an executable listed in the config's `credentialProviders` -- and
 * adapts its answers to the chain. Each question (`account`, `token`, `invalidate`) is one run of the
 * program: a JSON request on stdin, a JSON answer on stdout, bounded in time and size (`extension_api.ts`).
 * The program is run only when the chain reaches it, so a run the environment provider answers never starts it.
 *
 * Nothing is ever imported: a provider is a separate process, so a file that reached this machine through a
 * turn (a download into a workspace) cannot run inside larkit, and a program inside the state directory
 * (where workspaces live) or the cache is refused outright, at `config set` and again before every run.
 */
// `node:path` loads only where `relative` is needed: importing it costs every run's start-up (issue 17).
import { joinPath as join } from "../files.ts";
import type * as z from "zod";
import { endpointsFor } from "../config/endpoints.ts";
import { errors, type LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import {
  AccountAnswerSchema,
  InvalidateAnswerSchema,
  PROTOCOL_VERSION,
  PROVIDER_MAX_OUTPUT_BYTES,
  PROVIDER_TIMEOUT_MS,
  type ProviderRequest,
  TokenAnswerSchema,
} from "./extension_api.ts";
import type { CredentialProvider, CredentialSource } from "./types.ts";

const REMOVE_HINT = 'or remove it from the chain: larkit config set credential-providers ""';

/** Where a configured entry points: absolute, or relative to the config directory. */
export function extensionProgramPath(p: Provider, entry: string): string {
  return entry.startsWith("/") ? entry : join(p.paths.configDir, entry);
}

async function inside(dir: string, path: string): Promise<boolean> {
  const { isAbsolute, relative } = await import("node:path");
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

async function realOrSelf(p: Provider, path: string): Promise<string> {
  try {
    return await p.files.realPath(path);
  } catch {
    return path;
  }
}

/**
 * The program's path when it may be run: an existing file outside the state directory (threads' workspaces,
 * where turns download files) and the cache, judged on the path as given and on where its symlinks lead.
 */
export async function checkProviderProgram(p: Provider, entry: string): Promise<string> {
  const program = extensionProgramPath(p, entry);
  const real = await realOrSelf(p, program);
  for (const dir of [p.paths.stateDir, p.paths.cacheDir]) {
    const realDir = await realOrSelf(p, dir);
    if (await inside(dir, program) || await inside(realDir, real)) {
      throw errors.config(
        `credential provider ${program} is inside larkit's ${dir === p.paths.stateDir ? "state" : "cache"} ` +
          `directory (${dir}), where files downloaded by agent turns live; it is never run from there`,
        { hint: `install the provider elsewhere (e.g. /usr/local/bin), ${REMOVE_HINT}` },
      );
    }
  }
  const info = await p.files.stat(real);
  if (!info?.isFile) {
    throw errors.config(`credential provider ${program} does not exist or is not a file`, {
      hint: `fix the path, ${REMOVE_HINT}`,
    });
  }
  // A hard link, unlike a symlink, does not say where its other names are: one may be a file a turn downloaded
  // into a workspace. Nothing can tell, so a program with more than one name is refused.
  if ((info.links ?? 1) > 1) {
    throw errors.config(`credential provider ${program} has ${info.links} hard links; it is never run`, {
      hint:
        `a hard-linked file may also live in larkit's state directory: install a copy instead, ${REMOVE_HINT}`,
    });
  }
  return program;
}

function issueOf(error: z.$ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join(".") || "(answer)"}: ${issue.message}`;
}

/** One run of the program for one request; its parsed answer, or the error that says what went wrong. */
async function ask<S extends z.ZodMiniType>(
  p: Provider,
  entry: string,
  name: string,
  request: ProviderRequest,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  const program = await checkProviderProgram(p, entry);
  const outcome = await p.processes.run(program, {
    stdin: JSON.stringify(request) + "\n",
    timeoutMs: PROVIDER_TIMEOUT_MS,
    maxStdoutBytes: PROVIDER_MAX_OUTPUT_BYTES,
    signal: signal ?? p.signal,
  });
  const failed = (why: string): LarkitError =>
    errors.auth(`credential provider "${name}" failed (${request.action}): ${why}`, {
      hint: `fix the provider's setup (${program}), ${REMOVE_HINT}`,
    });
  switch (outcome.kind) {
    case "not-started":
      throw errors.config(`credential provider ${program} cannot be run: ${outcome.reason}`, {
        hint:
          `it must be an executable program (chmod +x, with a #! line); see docs/credential-providers.md, ${REMOVE_HINT}`,
      });
    case "timeout":
      throw failed(`no answer within ${PROVIDER_TIMEOUT_MS / 1000} s; it was stopped`);
    case "too-large":
      throw failed(`its answer is larger than ${PROVIDER_MAX_OUTPUT_BYTES} bytes; it was stopped`);
  }
  if (outcome.code !== 0) {
    const said = outcome.stderr.trim().split("\n").filter(Boolean).at(-1)?.slice(0, 500);
    throw failed(said ? said : `it exited with status ${outcome.code}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(outcome.stdout);
  } catch {
    throw errors.config(`credential provider "${name}" answered ${request.action} with something not JSON`, {
      hint: "it must print one JSON object on stdout (logs go to stderr); see docs/credential-providers.md",
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw errors.config(
      `credential provider "${name}" returned a malformed ${request.action} answer: ${issueOf(parsed.error)}`,
      { hint: "see docs/credential-providers.md for the shape" },
    );
  }
  return parsed.data;
}

async function adapt(p: Provider, entry: string): Promise<CredentialSource | undefined> {
  const fileName = extensionProgramPath(p, entry).replace(/\/+$/, "").split("/").pop() ?? "";
  const answer = await ask(
    p,
    entry,
    fileName,
    { version: PROTOCOL_VERSION, action: "account" },
    AccountAnswerSchema,
  );
  const acct = answer.account;
  if (!acct) return undefined;
  const name = acct.name ?? fileName;
  return {
    account: {
      source: `extension:${name}`,
      appId: acct.appId,
      brand: acct.brand,
      endpoints: endpointsFor(acct.brand, acct.baseUrl),
      defaultAs: acct.defaultAs,
      strictMode: acct.strictMode,
      user: acct.user,
    },
    identities: () => Promise.resolve(acct.identities),
    grantedScopes: (identity) => Promise.resolve(acct.scopes?.[identity]),
    async token(identity, signal) {
      if (!acct.identities.includes(identity)) {
        throw errors.auth(`credential provider "${name}" offers no ${identity} identity`, {
          hint: `use --as ${acct.identities[0]}`,
        });
      }
      const t = await ask(
        p,
        entry,
        name,
        { version: PROTOCOL_VERSION, action: "token", identity },
        TokenAnswerSchema,
        signal,
      );
      // The token goes into an Authorization header: a CR/LF would split it (a header injection the fetch API
      // refuses with a TypeError, once an `internal` error) and an ESC or other control character fails the
      // request as if the network had (retried in vain). Either way the provider is at fault: say so.
      if (!/^[\x21-\x7e]+$/.test(t.token)) {
        throw errors.auth(
          `credential provider "${name}" returned a ${identity} token with control characters, spaces or ` +
            `non-ASCII characters; it is not used`,
          { hint: `a token is printable ASCII without spaces: fix the provider, ${REMOVE_HINT}` },
        );
      }
      return { identity, token: t.token, expiresAt: t.expiresAt, scopes: t.scopes };
    },
    async invalidate(identity, token, signal) {
      const request = { version: PROTOCOL_VERSION, action: "invalidate", identity, token } as const;
      return (await ask(p, entry, name, request, InvalidateAnswerSchema, signal)).invalidated;
    },
  };
}

export function extensionProvider(p: Provider, entry: string): CredentialProvider {
  return { name: `extension:${entry}`, resolve: () => adapt(p, entry) };
}
