/**
 * Build time only: the response body shape of every suite method, read from the typed SDK
 * (`npm:@larksuiteoapi/node-sdk`, `types/index.d.ts`) with the TypeScript compiler API. The declarations
 * are walked syntactically (no type checker: the file is 17 MB and every response type is written inline), so
 * `client.calendar.v4.calendarEvent.instanceView(...)`'s `Promise<{code, msg, data?: T}>` yields T as a
 * compact JSON Schema: type, properties, required, items, enum. Binary downloads (`writeFile`/
 * `getReadableStream`) become `{type: "string", format: "binary"}`. The request side is read the same way:
 * each method's `payload` type (`path`, `params`, `data`), an upload part (`Buffer | fs.ReadStream`) as binary.
 */
import ts from "typescript";
import type { JsonSchema } from "../fields.ts";

/** `service.vN.resource.method` (the SDK's own name, as lark-mcp spells it) -> response body schema. */
export type SdkShapes = Map<string, JsonSchema>;

/** A method's request as the SDK types its `payload`: each part an object schema; absent when not taken. */
export interface SdkRequest {
  path?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
}
/** `service.vN.resource.method` -> the request the SDK's types allow. */
export type SdkRequests = Map<string, SdkRequest>;

const BINARY: JsonSchema = { type: "string", format: "binary" };
/** The type names the SDK gives a file part of a multipart upload. */
const FILE_TYPES = new Set([
  "Buffer",
  "fs.ReadStream",
  "ReadStream",
  "Readable",
  "Blob",
]);

function nameOf(n: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) {
    return n.text;
  }
  return undefined;
}

interface Declarations {
  /** Top-level interfaces and type aliases, for the rare named type inside a response. */
  named: Map<string, ts.TypeNode | ts.InterfaceDeclaration>;
}

function literalOf(t: ts.TypeNode): string | number | boolean | undefined {
  if (!ts.isLiteralTypeNode(t)) return undefined;
  const l = t.literal;
  if (ts.isStringLiteral(l)) return l.text;
  if (ts.isNumericLiteral(l)) return Number(l.text);
  if (
    ts.isPrefixUnaryExpression(l) && l.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(l.operand)
  ) return -Number(l.operand.text);
  if (l.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (l.kind === ts.SyntaxKind.FalseKeyword) return false;
  return undefined;
}

function isNothing(t: ts.TypeNode): boolean {
  return t.kind === ts.SyntaxKind.UndefinedKeyword ||
    (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
}

function membersSchema(
  members: ts.NodeArray<ts.TypeElement>,
  d: Declarations,
  depth: number,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let additional: JsonSchema | undefined;
  for (const m of members) {
    if (ts.isPropertySignature(m) && m.type) {
      const name = nameOf(m.name);
      if (name === undefined) continue;
      properties[name] = schemaOf(m.type, d, depth + 1);
      if (!m.questionToken) required.push(name);
    } else if (ts.isIndexSignatureDeclaration(m)) {
      additional = schemaOf(m.type, d, depth + 1);
    }
  }
  const out: JsonSchema = { type: "object" };
  if (Object.keys(properties).length) out.properties = properties;
  if (required.length) out.required = required;
  if (additional) out.additionalProperties = additional;
  return out;
}

/** One TS type node -> JSON Schema. Unknown constructs become `{}` (any), never an error. */
export function schemaOf(
  t: ts.TypeNode,
  d: Declarations,
  depth = 0,
): JsonSchema {
  if (depth > 40) return {};
  switch (t.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return {};
  }
  if (ts.isParenthesizedTypeNode(t)) return schemaOf(t.type, d, depth);
  if (ts.isTypeLiteralNode(t)) return membersSchema(t.members, d, depth);
  if (ts.isArrayTypeNode(t)) {
    return { type: "array", items: schemaOf(t.elementType, d, depth + 1) };
  }
  if (ts.isLiteralTypeNode(t)) {
    const v = literalOf(t);
    return v === undefined ? {} : { type: typeof v, enum: [v] };
  }
  if (ts.isUnionTypeNode(t)) {
    const branches = t.types.filter((b) => !isNothing(b));
    if (branches.length === 1) return schemaOf(branches[0], d, depth);
    const files = branches.map((b) => schemaOf(b, d, depth + 1)).filter((b) => b.format === "binary");
    if (files.length === branches.length) return BINARY;
    const literals = branches.map(literalOf);
    if (literals.every((v) => v !== undefined)) {
      const types = new Set(literals.map((v) => typeof v));
      if (types.size === 1) {
        const type = [...types][0];
        // `true | false` is how TS spells boolean once expanded.
        return type === "boolean" ? { type } : { type, enum: literals as (string | number)[] };
      }
    }
    return {};
  }
  if (ts.isTypeReferenceNode(t)) {
    const name = t.typeName.getText();
    const args = t.typeArguments ?? [];
    if ((name === "Array" || name === "ReadonlyArray") && args.length === 1) {
      return { type: "array", items: schemaOf(args[0], d, depth + 1) };
    }
    if (name === "Record" && args.length === 2) {
      return {
        type: "object",
        additionalProperties: schemaOf(args[1], d, depth + 1),
      };
    }
    // Upload parts: `image: Buffer | fs.ReadStream`.
    if (FILE_TYPES.has(name)) return BINARY;
    const decl = d.named.get(name);
    if (decl && ts.isInterfaceDeclaration(decl)) {
      return membersSchema(decl.members, d, depth);
    }
    if (decl) return schemaOf(decl as ts.TypeNode, d, depth + 1);
    return {};
  }
  return {};
}

/** The `data` member of `Promise<{code?, msg?, data?: T}>`, or the binary marker for downloads. */
function responseOf(
  fn: ts.FunctionTypeNode,
  d: Declarations,
): JsonSchema | undefined {
  const ret = fn.type;
  if (!ts.isTypeReferenceNode(ret) || ret.typeName.getText() !== "Promise") {
    return undefined;
  }
  let inner = ret.typeArguments?.[0];
  // Uploads resolve to the body's `data` itself, or null: `Promise<{image_key?: string} | null>`.
  if (inner && ts.isUnionTypeNode(inner)) {
    const some = inner.types.filter((t) => !isNothing(t));
    if (some.length === 1 && ts.isTypeLiteralNode(some[0])) {
      return schemaOf(some[0], d);
    }
    inner = undefined;
  }
  if (!inner || !ts.isTypeLiteralNode(inner)) return undefined;
  const names = new Set(inner.members.map((m) => m.name && nameOf(m.name)));
  if (names.has("getReadableStream") || names.has("writeFile")) return BINARY;
  const data = inner.members.find((m): m is ts.PropertySignature =>
    ts.isPropertySignature(m) && m.name !== undefined &&
    nameOf(m.name) === "data"
  );
  if (!data?.type) return names.has("code") ? { type: "object" } : undefined;
  return schemaOf(data.type, d);
}

/** Walks one service member: `{ v4: { calendarEvent: { instanceView: (...) => Promise<...> } } }`. */
function collect(
  prefix: string[],
  node: ts.TypeNode,
  d: Declarations,
  out: SdkShapes,
  requests: SdkRequests,
  docs: Map<string, string>,
): void {
  if (!ts.isTypeLiteralNode(node)) return;
  for (const m of node.members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const name = nameOf(m.name);
    if (name === undefined) continue;
    const path = [...prefix, name];
    if (ts.isFunctionTypeNode(m.type)) {
      // Only versioned names (`svc.v4.res.method`): the unversioned aliases repeat the latest version.
      if (/^v\d+$/.test(path[1] ?? "") && !name.endsWith("WithIterator")) {
        const shape = responseOf(m.type, d);
        if (shape) out.set(path.join("."), shape);
        requests.set(path.join("."), requestOf(m.type, d));
        const jsDoc = (m as { jsDoc?: ts.JSDoc[] }).jsDoc?.[0]?.comment;
        const doc = ts.getTextOfJSDocComment(jsDoc);
        if (doc) docs.set(path.join("."), doc);
      }
    } else {
      collect(path, m.type, d, out, requests, docs);
    }
  }
}

/** `(payload?: {data?: {...}, params?: {...}, path?: {...}}, options?) => ...`: the three parts. */
function requestOf(fn: ts.FunctionTypeNode, d: Declarations): SdkRequest {
  let payload = fn.parameters[0]?.type;
  // `payload?: {...} | undefined` in some services.
  if (payload && ts.isUnionTypeNode(payload)) {
    payload = payload.types.find((b) => !isNothing(b));
  }
  const out: SdkRequest = {};
  if (!payload || !ts.isTypeLiteralNode(payload)) return out;
  const parts = { path: "path", params: "query", data: "body" } as const;
  for (const m of payload.members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const part = parts[nameOf(m.name) as keyof typeof parts];
    if (part) out[part] = schemaOf(m.type, d);
  }
  return out;
}

/** Parses the SDK's declaration file: every versioned method's response schema and request parts. */
export function sdkTypes(
  declarationText: string,
): { shapes: SdkShapes; requests: SdkRequests; docs: Map<string, string> } {
  const file = ts.createSourceFile(
    "index.d.ts",
    declarationText,
    ts.ScriptTarget.Latest,
    true,
  );
  const d: Declarations = { named: new Map() };
  for (const s of file.statements) {
    if (ts.isInterfaceDeclaration(s)) d.named.set(s.name.text, s);
    else if (ts.isTypeAliasDeclaration(s)) d.named.set(s.name.text, s.type);
  }
  const out: SdkShapes = new Map();
  const requests: SdkRequests = new Map();
  const docs = new Map<string, string>();
  for (const s of file.statements) {
    if (!ts.isClassDeclaration(s) || !s.name?.text.startsWith("Client")) {
      continue;
    }
    for (const m of s.members) {
      if (!ts.isPropertyDeclaration(m) || !m.type) continue;
      const service = nameOf(m.name);
      if (service !== undefined) {
        collect([service], m.type, d, out, requests, docs);
      }
    }
  }
  return { shapes: out, requests, docs };
}
