/**
 * Rewrites the zod bundle so V8 compiles its functions with the module instead of on first call. V8 compiles a
 * function lazily unless it is parenthesized (its eager heuristic), and Deno's code cache holds only what was
 * compiled with the module: so every run compiled, from source, each zod function it called -- ~ 2.4 ms of a
 * generated command's dry run building and first using its flag schema (issue 17). Parenthesized, they are
 * compiled once and read from the code cache after that.
 *
 * Two rewrites, semantics kept: every function and arrow expression is put in parentheses; every top-level
 * function declaration becomes a parenthesized expression assigned to a `var` of its name at the top of the
 * module. A declaration's binding is initialized before any of the module's code runs, and the bundle imports
 * nothing, so assigning them all first is what hoisting did.
 *
 * A build step, not part of larkit: acorn comes from this folder's own config and lock (`gen/deno.json`), so a
 * run never fetches it. `build.ts` runs this as `deno run --config gen/deno.json eager.ts` (text in, text out).
 */
import { type Node, parse, type Program, type Property } from "acorn";

const OPTIONS = { ecmaVersion: "latest", sourceType: "module", preserveParens: true } as const;

const program = (text: string): Program => parse(text, OPTIONS);

/** Each node with its parent, depth first. */
function* nodes(node: Node, parent?: Node): Generator<[Node, Node | undefined]> {
  yield [node, parent];
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === "object" && typeof child.type === "string") yield* nodes(child, node);
    }
  }
}

/** A method's or accessor's function is part of its definition's syntax: it cannot take parentheses. */
function isMethodValue(parent: Node | undefined): boolean {
  if (parent?.type === "MethodDefinition") return true;
  const property = parent?.type === "Property" ? parent as Property : undefined;
  return !!property && (property.method || property.kind !== "init");
}

function insert(text: string, edits: [number, string][]): string {
  let out = text;
  for (const [at, s] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + s + out.slice(at);
  return out;
}

function parenthesizeExpressions(text: string): string {
  const edits: [number, string][] = [];
  for (const [node, parent] of nodes(program(text))) {
    const fn = node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";
    if (fn && parent?.type !== "ParenthesizedExpression" && !isMethodValue(parent)) {
      edits.push([node.start, "("], [node.end, ")"]);
    }
  }
  return insert(text, edits);
}

function assignDeclarationsFirst(text: string): string {
  const declarations = program(text).body.filter((n) => n.type === "FunctionDeclaration");
  const assignments = declarations.map((d) => `var ${d.id.name} = (${text.slice(d.start, d.end)});\n`);
  let rest = text;
  for (const d of [...declarations].reverse()) rest = rest.slice(0, d.start) + rest.slice(d.end);
  return assignments.join("") + rest;
}

export function compiledEagerly(text: string): string {
  return assignDeclarationsFirst(parenthesizeExpressions(text));
}

if (import.meta.main) {
  const text = await new Response(Deno.stdin.readable).text();
  await Deno.stdout.write(new TextEncoder().encode(compiledEagerly(text)));
}
