/**
 * The help of a generated command: its path, query and body parameters (required ones marked `*`) and an
 * example call built from the schema, so `--help` alone is enough to make the first call.
 */
import type { ApiMethod } from "../../registry/method.ts";
import type { FieldSpec } from "../../registry/schema.ts";

function typeOf(f: FieldSpec): string {
  const choices = f.enum ?? f.options?.map((o) => o.value).filter((v) => v !== undefined);
  return choices?.length ? choices.map(String).join("|") : f.type ?? "string";
}

function line(label: string, fields: [string, FieldSpec][]): string[] {
  if (fields.length === 0) return [];
  const sorted = [...fields].sort(([, a], [, b]) => Number(!!b.required) - Number(!!a.required));
  return [
    `  ${label.padEnd(6)} ${
      sorted.map(([n, f]) => `${n}${f.required ? "*" : ""} (${typeOf(f)})`).join("  ")
    }`,
  ];
}

/** A value an example can show: the schema's own example, else its first choice, else a placeholder. */
function sample(name: string, f: FieldSpec): unknown {
  if (f.example !== undefined) return f.example;
  const choice = f.enum?.[0] ?? f.options?.find((o) => o.value !== undefined)?.value;
  if (choice !== undefined) return choice;
  if (f.type === "boolean") return true;
  if (f.type === "int" || f.type === "integer" || f.type === "number") return 1;
  return `<${name}>`;
}

const quote = (value: unknown) => `'${JSON.stringify(value).replaceAll("'", "'\\''")}'`;

export function methodHelp(m: ApiMethod): string {
  const params = Object.entries(m.parameters);
  const body = Object.entries(m.requestBody ?? {});
  const lines = [
    ...line("path:", params.filter(([, p]) => p.location === "path")),
    ...line("query:", params.filter(([, p]) => p.location === "query")),
    ...line("body:", body),
  ];
  const required = params.filter(([, p]) => p.required);
  const requiredBody = body.filter(([, f]) => f.required);
  const example = [
    `larkit ${m.service} ${m.resource} ${m.name}`,
    ...(required.length
      ? ["--params", quote(Object.fromEntries(required.map(([n, f]) => [n, sample(n, f)])))]
      : []),
    ...(requiredBody.length
      ? ["--data", quote(Object.fromEntries(requiredBody.map(([n, f]) => [n, sample(n, f)])))]
      : []),
  ].join(" ");
  return [
    "",
    `${m.httpMethod} ${m.path}`,
    ...(lines.length
      ? ["Parameters (* required; --params takes path and query, --data the body):", ...lines]
      : []),
    "",
    "Example:",
    `  ${example}`,
    "",
    `Identities: ${m.identities.join(", ") || "none (no token)"}    Risk: ${m.risk}`,
    ...(m.scopes.length ? [`Scopes: ${m.scopes.join(", ")}`] : []),
  ].join("\n");
}
