/**
 * `larkit schema [service[.resource[.method]]] [--format json|pretty]`: what the registry knows. No path →
 * services; a service → its resources and methods; a resource → its methods; a method → parameters
 * (location, type, required, enum, description), body and response as JSON Schema, identities, risk, scopes.
 * Resource names contain dots, so the longest matching resource wins.
 */
import type { Command } from "commander";
import { registryOf } from "../api_commands/registry_of.ts";
import { readOnlyInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitSuccess, emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import type { ApiMethod, Registry, ServiceSpec } from "../../registry/index.ts";
import { jsonSchemaFromFields } from "../../registry/fields.ts";
import { toApiMethod } from "../../registry/method.ts";

export type SchemaTarget =
  | { kind: "services" }
  | { kind: "service"; service: ServiceSpec }
  | { kind: "resource"; service: ServiceSpec; resource: string }
  | { kind: "method"; method: ApiMethod };

export async function resolveSchemaPath(registry: Registry, path: string | undefined): Promise<SchemaTarget> {
  if (!path) return { kind: "services" };
  const [name, ...rest] = path.split(".");
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

/** The JSON document for one method: parameters flat (lark-cli style) plus JSON Schemas of each part. */
export function describeMethod(m: ApiMethod): Record<string, unknown> {
  const byLocation = (loc: "path" | "query") =>
    Object.fromEntries(Object.entries(m.parameters).filter(([, p]) => p.location === loc));
  const doc: Record<string, unknown> = {
    id: m.id,
    command: `larkit ${m.service} ${m.resource} ${m.name}`,
    httpMethod: m.httpMethod,
    path: m.path,
    summary: m.summary,
    description: m.description,
    descriptionZh: m.descriptionZh,
    identities: m.identities,
    risk: m.risk,
    scopes: m.scopes,
    requiredScopes: m.requiredScopes,
    parameters: m.parameters,
    schemas: {
      path: jsonSchemaFromFields(byLocation("path")),
      query: jsonSchemaFromFields(byLocation("query")),
      ...(m.requestBody ? { body: jsonSchemaFromFields(m.requestBody) } : {}),
      ...(m.responseBody ? { response: jsonSchemaFromFields(m.responseBody) } : {}),
    },
  };
  if (m.idempotency) doc.idempotency = m.idempotency;
  if (m.fileFields.length) doc.fileFields = m.fileFields;
  if (m.docUrl) doc.docUrl = m.docUrl;
  if (m.tips?.length) doc.tips = m.tips;
  return doc;
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

function clip(text: string | undefined, n = 100): string {
  const t = (text ?? "").replace(/\s+/g, " ");
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}

export function prettyMethod(m: ApiMethod): string {
  const lines = [`${m.httpMethod} ${m.path}`, "", clip(m.description, 300), "", "Parameters:"];
  const params = Object.entries(m.parameters).sort(([a, pa], [b, pb]) =>
    Number(!!pb.required) - Number(!!pa.required) || (a < b ? -1 : 1)
  );
  if (!params.length) lines.push("  (none)");
  for (const [name, p] of params) {
    const allowed = p.enum?.length ? ` [${p.enum.join("|")}]` : "";
    lines.push(
      `  ${name} (${p.type ?? "any"}, ${p.location}, ${p.required ? "required" : "optional"})${allowed}`,
    );
    if (p.description) lines.push(`      ${clip(p.description)}`);
  }
  if (m.requestBody) {
    lines.push("", "Body (--data):");
    for (const [name, f] of Object.entries(m.requestBody)) {
      lines.push(
        `  ${name} (${f.type ?? "any"}, ${f.required ? "required" : "optional"})  ${clip(f.description, 80)}`,
      );
    }
  }
  if (m.fileFields.length) lines.push("", `File (--file): ${m.fileFields.join(", ")}`);
  lines.push(
    "",
    `Identity: ${m.identities.join(", ") || "none (no access token)"}`,
    `Risk: ${m.risk}`,
    `Scopes: ${m.scopes.join(", ") || "unknown"}`,
    `CLI: larkit ${m.service} ${m.resource} ${m.name} --params '{…}'${
      m.httpMethod === "GET" ? "" : " --data '{…}'"
    }`,
  );
  if (m.docUrl) lines.push(`Docs: ${m.docUrl}`);
  return lines.join("\n");
}

async function show(ctx: RunContext, path: string | undefined, format: string): Promise<void> {
  if (format !== "json" && format !== "pretty") {
    throw errors.validation(`invalid value "${format}" for --format`, { hint: "use json or pretty" });
  }
  const registry = await registryOf(ctx);
  const target = await resolveSchemaPath(registry, path);
  const pretty = format === "pretty";
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
      if (pretty) {
        return await emitText(
          ctx,
          [
            `${s.name}: ${s.description ?? ""}`,
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
      return await emitSuccess(ctx, { data: { ...head, resources }, meta: { count: resources.length } });
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
    case "method":
      if (pretty) return await emitText(ctx, prettyMethod(target.method));
      return await emitSuccess(ctx, { data: describeMethod(target.method) });
  }
}

export function registerSchema(program: Command, ctx: RunContext): void {
  const cmd = program.command("schema")
    .description("show the API registry: services, resources, methods and their parameters")
    .argument("[path]", "service[.resource[.method]], e.g. calendar.events.instance_view")
    .option("--format <fmt>", "json (default) or pretty", "json")
    .action(async (path: string | undefined, opts: { format: string }) => await show(ctx, path, opts.format));
  setMeta(cmd, { layer: "builtin", turn: readOnlyInTurns("reads the embedded registry") });
}
