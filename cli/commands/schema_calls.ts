/**
 * The methods a shortcut calls, for `schema <service.+shortcut>`: its first example is planned the way
 * `--dry-run` plans it (every call answers with its declared `planned` stand-in, nothing is sent), and each
 * request is matched to its registry method. Loaded only by `schema` for a shortcut.
 *
 * The plan sees the example's flags as text coerced by each flag's own schema; a shortcut whose plan needs
 * more (a real file, a flag combination the example lacks) lists the calls it reached and says so.
 */
import { basename } from "node:path";
import type { Registry } from "../../registry/index.ts";
import { compileMethod, matchMethod, serviceOfPath } from "../../registry/match.ts";
import { flagSchema, type FlagSpecs, type Shortcut, type ShortcutContext } from "../../shortcuts/declare.ts";
import type { RawFlagValue } from "../../shortcuts/inputs.ts";
import { tokenize } from "../../rpc/tokenize.ts";
import type { CommandNode } from "../resolve/node.ts";
import { parseLine } from "../resolve/parse.ts";
import { staticShortcut } from "../resolve/shortcut_nodes.ts";

export interface CalledMethod {
  httpMethod: string;
  path: string;
  /** The registry method (`service.resource.method`), when the registry has one. */
  method?: string;
  /** An MCP tool instead of an OpenAPI request. */
  mcpTool?: string;
}

/** An example line up to where a shell would start another program or a redirection (`| jq`, `> out.md`). */
function commandPart(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if ("|;&<>".includes(c)) return line.slice(0, i);
  }
  return line;
}

/**
 * The flag values of a shortcut's example line (`larkit <service> +name --flag value ...`), read by the
 * resolver's own parse against the shortcut's flags, quotes as a turn's text takes them; none for a line it
 * does not take.
 */
export function exampleFlags(shortcut: Shortcut, example: string): Record<string, RawFlagValue> {
  const tokens = tokenize(commandPart(example));
  if (!tokens.ok) return {};
  const at = tokens.argv.findIndex((w) =>
    w === shortcut.command || shortcut.aliases?.includes(w as `+${string}`)
  );
  const node: CommandNode = {
    name: shortcut.command,
    aliases: [],
    description: "",
    options: staticShortcut(shortcut).options,
    commands: [],
    leaf: true,
  };
  try {
    return parseLine(node, tokens.argv.slice(at + 1)).values;
  } catch {
    return {};
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The example's text as the flag's schema takes it; an absent flag gets the schema's default, if any. */
async function coerce(spec: FlagSpecs[string], raw: RawFlagValue): Promise<{ value?: unknown }> {
  const schema = await flagSchema(spec);
  if (raw === undefined) {
    const fallback = schema.safeParse(undefined);
    return fallback.success && fallback.data !== undefined ? { value: fallback.data } : {};
  }
  const candidates = typeof raw !== "string"
    ? [raw]
    : spec.kind === "json"
    ? [parseJson(raw), raw]
    : [raw, Number(raw), raw === "true"];
  for (const c of candidates) {
    const parsed = schema.safeParse(c);
    if (parsed.success) return { value: parsed.data };
  }
  return { value: raw };
}

export async function shortcutCalls(
  shortcut: Shortcut,
  registry: Registry,
): Promise<{ calls: CalledMethod[]; complete: boolean }> {
  const raw = shortcut.examples[0] ? exampleFlags(shortcut, shortcut.examples[0]) : {};
  // Absent flags are absent keys, as the pipeline resolves them.
  const flags: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(shortcut.flags)) {
    const c = await coerce(spec, raw[name]);
    if ("value" in c) flags[name] = c.value;
  }
  const requests: { httpMethod: string; path: string; mcpTool?: string }[] = [];
  const record = (httpMethod: string, path: string) =>
    requests.push({ httpMethod, path: path.split("?")[0] });
  const ctx = {
    flags,
    identity: shortcut.authTypes[0],
    userOpenId: "ou_schema_example",
    timeZone: "UTC",
    now: () => Date.UTC(2026, 0, 1),
    api: (call: { method: string; path: string; planned: unknown }) => {
      record(call.method, call.path);
      return Promise.resolve(call.planned);
    },
    paginate: (call: { method: string; path: string; planned: unknown }) => {
      record(call.method, call.path);
      return Promise.resolve([call.planned]);
    },
    upload: (call: { path: string; planned: unknown }) => {
      record("POST", call.path);
      return Promise.resolve(call.planned);
    },
    uploadBytes: (call: { path: string; planned: unknown }) => {
      record("POST", call.path);
      return Promise.resolve(call.planned);
    },
    download: (call: { path: string; fallbackName: string }) => {
      record("GET", call.path);
      return Promise.resolve({ saved_path: call.fallbackName, size_bytes: 0 });
    },
    mcp: (call: { tool: string; planned: unknown }) => {
      requests.push({ httpMethod: "POST", path: "/mcp", mcpTool: call.tool });
      return Promise.resolve(call.planned);
    },
    localFile: (_flag: string, path: string) => Promise.resolve({ name: basename(path), size: 1024 }),
    inlineFile: () => Promise.resolve(""),
    fetchText: (call: { path: string }) => {
      record("GET", call.path);
      return Promise.resolve(undefined);
    },
    localText: () => Promise.resolve(""),
    note: () => {},
    progress: () => Promise.resolve(),
    out: () => Promise.resolve(),
    outFormat: () => Promise.resolve(),
  };
  let complete = true;
  try {
    // The stand-in context offers every action `run` may take; the cast is the boundary to the shortcut.
    await shortcut.run(ctx as unknown as ShortcutContext<FlagSpecs>);
  } catch {
    complete = false;
  }
  const calls: CalledMethod[] = [];
  for (const r of requests) {
    if (r.mcpTool) {
      calls.push({ httpMethod: r.httpMethod, path: r.path, mcpTool: r.mcpTool });
      continue;
    }
    const service = serviceOfPath(r.path);
    const methods = service ? (await registry.methods(service)).map(compileMethod) : [];
    const found = matchMethod(methods, r.httpMethod, r.path).method;
    calls.push({
      httpMethod: r.httpMethod,
      path: found?.method.path ?? r.path,
      ...(found ? { method: found.method.id } : {}),
    });
  }
  const unique = [...new Map(calls.map((c) => [`${c.httpMethod} ${c.path} ${c.mcpTool ?? ""}`, c])).values()];
  return { calls: unique, complete };
}
