/**
 * `larkit schema [service[.resource[.method]]] [--format json|pretty]`: what the registry knows. No path ->
 * services; a service -> its resources and methods; a resource -> its methods; a method -> parameters
 * (location, type, required, enum, description), body and response as JSON Schema, identities, risk, scopes,
 * pagination and examples; `service.+shortcut` -> a shortcut's flags, identities, scopes and risk. Resource
 * names contain dots, so the longest matching resource wins.
 */
import { registryOf } from "../api_commands/registry_of.ts";
import { readOnlyInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitResult, emitText } from "../output/emit.ts";
import type { Meta } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import { lazy } from "../lazy.ts";
import type { ApiMethod, Registry, ServiceSpec } from "../../registry/index.ts";
import { flag, type Shortcut } from "../../shortcuts/declare.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import type { CalledMethod } from "./schema_calls.ts";
import { toApiMethod } from "../../registry/method.ts";

export type SchemaTarget =
  | { kind: "services" }
  | { kind: "service"; service: ServiceSpec }
  | { kind: "resource"; service: ServiceSpec; resource: string }
  | { kind: "method"; method: ApiMethod }
  | { kind: "shortcut"; shortcut: Shortcut };

export async function resolveSchemaPath(registry: Registry, path: string | undefined): Promise<SchemaTarget> {
  if (!path) return { kind: "services" };
  if (!/^\w+(\.[\w+-]+)*$/.test(path)) {
    throw errors.validation(`not a schema path: "${path}"`, {
      hint:
        "name a service, resource, method or shortcut with dots, e.g. calendar.calendars.list or im.+messages-send",
    });
  }
  const [name, ...rest] = path.split(".");
  if (rest[0]?.startsWith("+")) {
    const command = rest.join(".");
    const all = await shortcutsOf(name);
    const shortcut = all.find((s) => s.command === command);
    if (!shortcut) {
      throw errors.validation(`Unknown shortcut: ${name}.${command}`, {
        hint: all.length ? `Available: ${all.map((s) => s.command).join(", ")}` : `${name} has no shortcuts`,
      });
    }
    return { kind: "shortcut", shortcut };
  }
  const service = await registry.loadService(name);
  if (!service) {
    throw errors.validation(`Unknown service: ${name}`, {
      hint: `Available: ${registry.listServices().map((s) => s.name).join(", ")}`,
    });
  }
  if (rest.length === 0) return { kind: "service", service };
  for (let cut = rest.length; cut > 0; cut--) {
    const resource = rest.slice(0, cut).join(".");
    if (!Object.hasOwn(service.resources, resource)) continue;
    const tail = rest.slice(cut);
    if (tail.length === 0) return { kind: "resource", service, resource };
    const methods = service.resources[resource].methods;
    const methodName = tail.join(".");
    if (!Object.hasOwn(methods, methodName)) {
      throw errors.validation(`Unknown method: ${name}.${resource}.${methodName}`, {
        hint: `Available: ${Object.keys(methods).sort().join(", ")}`,
      });
    }
    return { kind: "method", method: toApiMethod(service, resource, methodName, methods[methodName]) };
  }
  throw errors.validation(`Unknown resource: ${name}.${rest.join(".")}`, {
    hint: `Available: ${Object.keys(service.resources).sort().join(", ")}`,
  });
}

function clip(text: string | undefined, n = 100): string {
  const t = (text ?? "").replace(/\s+/g, " ");
  return t.length > n ? t.slice(0, n - 1) + "\u2026" : t;
}

function methodList(service: ServiceSpec, resource: string) {
  return Object.keys(service.resources[resource].methods).sort().map((name) => {
    const m = toApiMethod(service, resource, name, service.resources[resource].methods[name]);
    return {
      name,
      httpMethod: m.httpMethod,
      path: m.path,
      risk: m.risk,
      identities: m.identities,
      summary: m.summary,
    };
  });
}

/** The shortcuts of a service, or one of them; their modules load only here, not on every `schema`. */
async function shortcutsOf(service: string): Promise<Shortcut[]> {
  const { loadShortcuts } = await import("../../shortcuts/index.ts");
  return (await loadShortcuts(service)).filter((s) => s.service === service) as unknown as Shortcut[];
}

/** A shortcut's declaration as data: flags, identities, scopes, risk, examples. */
export function describeShortcut(
  s: Shortcut,
  called?: { calls: CalledMethod[]; complete: boolean },
): Record<string, unknown> {
  return {
    id: `${s.service}.${s.command}`,
    command: `larkit ${s.service} ${s.command}`,
    description: s.description,
    risk: s.risk,
    identities: s.authTypes,
    scopes: s.scopes,
    flags: Object.entries(s.flags).map(([name, f]) => ({
      name: `--${name}`,
      kind: f.kind,
      required: !!f.required,
      ...(f.choices ? { choices: [...f.choices] } : {}),
      ...(f.defaultText ? { default: f.defaultText } : {}),
      ...(f.input ? { input: f.input } : {}),
      ...(f.deprecated ? { deprecated: `use ${f.deprecated}` } : {}),
      description: f.description,
    })),
    ...(s.hasFormat ? { formats: ["json", "pretty", "table", "csv", "ndjson"] } : {}),
    examples: s.examples,
    ...(called ? { calls: called.calls, callsComplete: called.complete } : {}),
  };
}

function prettyShortcut(s: Shortcut, called: { calls: CalledMethod[]; complete: boolean }): string {
  const doc = describeShortcut(s, called);
  const flags = doc.flags as {
    name: string;
    kind: string;
    required: boolean;
    choices?: string[];
    description: string;
  }[];
  return [
    `larkit ${s.service} ${s.command}`,
    "",
    s.description,
    "",
    "Flags:",
    ...flags.map((f) =>
      `  ${f.name.padEnd(24)} ${f.kind.padEnd(8)} ${f.required ? "required" : "        "}${
        f.choices ? ` [${f.choices.join("|")}]` : ""
      }  ${clip(f.description, 70)}`
    ),
    "",
    `Identity: ${s.authTypes.join(", ")}`,
    `Risk: ${s.risk}`,
    `Scopes: ${
      Object.entries(s.scopes).map(([who, list]) => `${who}: ${list?.join(", ")}`).join("; ") || "none"
    }`,
    "",
    `Calls (planned from the first example${called.complete ? "" : "; more may follow with other flags"}):`,
    ...called.calls.map((c) =>
      c.mcpTool
        ? `  MCP tool ${c.mcpTool}`
        : `  ${c.httpMethod.padEnd(6)} ${c.path}${
          c.method ? `  (schema ${c.method})` : "  (not in the registry)"
        }`
    ),
    ...(s.examples.length ? ["", "Examples:", ...s.examples.map((e) => `  ${e}`)] : []),
  ].join("\n");
}

/** What `larkit schema [path] [--format] [--jq]` prints. */
export async function show(
  ctx: RunContext,
  path: string | undefined,
  format: string,
  jq?: string,
): Promise<void> {
  if (format !== "json" && format !== "pretty") {
    throw errors.validation(`invalid value "${format}" for --format`, { hint: "use json or pretty" });
  }
  if (jq !== undefined) await (await lazy("cli/output/formats/jq.ts")).checkJq(jq);
  // --jq filters the JSON envelope, so it takes precedence over the pretty text.
  const emitSuccess = (_: RunContext, parts: { data: unknown; meta?: Meta }) =>
    emitResult(ctx, { identity: ctx.state.identity, format: "json", jq }, parts.data, parts.meta);
  const registry = await registryOf(ctx);
  const target = await resolveSchemaPath(registry, path);
  const pretty = format === "pretty" && jq === undefined;
  switch (target.kind) {
    case "services": {
      const services = registry.listServices();
      if (pretty) {
        return await emitText(ctx, services.map((s) => `${s.name.padEnd(28)} ${s.description}`).join("\n"));
      }
      return await emitSuccess(ctx, {
        data: { version: registry.version, services },
        meta: { count: services.length },
      });
    }
    case "service": {
      const s = target.service;
      const resources = Object.keys(s.resources).sort().map((r) => ({ name: r, methods: methodList(s, r) }));
      const shortcuts = (await shortcutsOf(s.name)).map((x) => ({
        command: x.command,
        description: x.description,
      }));
      if (pretty) {
        return await emitText(
          ctx,
          [
            `${s.name}: ${s.description ?? ""}`,
            ...(shortcuts.length
              ? [
                "  shortcuts",
                ...shortcuts.map((x) => `    ${x.command.padEnd(26)} ${clip(x.description, 66)}`),
              ]
              : []),
            ...resources.flatMap((r) => [
              `  ${r.name}`,
              ...r.methods.map((m) =>
                `    ${m.name.padEnd(26)} ${m.httpMethod.padEnd(6)} ${
                  m.risk === "high-risk-write" ? "[danger] " : ""
                }${clip(m.summary, 60)}`
              ),
            ]),
          ].join("\n"),
        );
      }
      const { resources: _omit, ...head } = s;
      return await emitSuccess(ctx, {
        data: { ...head, resources, shortcuts },
        meta: { count: resources.length },
      });
    }
    case "resource": {
      const methods = methodList(target.service, target.resource);
      if (pretty) {
        return await emitText(
          ctx,
          methods.map((m) => `${m.name.padEnd(26)} ${m.httpMethod.padEnd(6)} ${m.path}`).join("\n"),
        );
      }
      return await emitSuccess(ctx, {
        data: { service: target.service.name, resource: target.resource, methods },
        meta: { count: methods.length },
      });
    }
    case "method": {
      // The response shapes and the renderer load only here, never on another command's path.
      const [{ describeMethod, prettyMethod }, { responseShapeOf }] = await Promise.all([
        lazy("registry/describe.ts"),
        lazy("registry/shapes.ts"),
      ]);
      const response = await responseShapeOf(target.method);
      if (pretty) return await emitText(ctx, prettyMethod(target.method, response));
      return await emitSuccess(ctx, { data: describeMethod(target.method, response) });
    }
    case "shortcut": {
      const { shortcutCalls } = await lazy("cli/commands/schema_calls.ts");
      const called = await shortcutCalls(target.shortcut, registry);
      if (pretty) return await emitText(ctx, prettyShortcut(target.shortcut, called));
      return await emitSuccess(ctx, { data: describeShortcut(target.shortcut, called) });
    }
  }
}

/**
 * `larkit schema [path]`.
 */
export const schemaCommand = defineCommand({
  words: ["schema"],
  description: "show the API registry: services, resources, methods and their parameters",
  flags: {
    format: flag.defaulted("json (default) or pretty", "json", { placeholder: "fmt" }),
    jq: flag.string("jq filter over the result envelope, e.g. '.data.services[].name'", {
      placeholder: "expr",
      short: "q",
    }),
  },
  args: [{
    name: "path",
    description: "service[.resource[.method]] or service.+shortcut, e.g. calendar.events.instance_view",
  }],
  turn: readOnlyInTurns("reads the embedded registry"),
  action: (ctx, { flags, args: [path] }) => show(ctx, path, flags.format, flags.jq),
});

export const schemaCommands: CommandModule = { groups: [], commands: [schemaCommand] };
