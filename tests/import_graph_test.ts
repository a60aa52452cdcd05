/**
 * The import graph against ARCHITECTURE.md: every static and dynamic import between larkit's own modules (all
 * non-test .ts files) must be allowed by the "may import" column of the importing room, and no two rooms may
 * import each other, directly or around a circle. The rooms and the edges between them are printed, so a
 * reviewer (and the closing note) can read the real shape of the code.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { REPO } from "./helpers/run_main.ts";

interface Room {
  /** Paths as the table writes them: `cli/output/` (a folder) or `cli/run.ts` (a file). */
  members: string[];
  /** Paths it may import; `*` for everything. */
  mayImport: string[];
}

/** The rooms table of ARCHITECTURE.md: first column the room's paths, last column what it may import. */
export function parseRooms(markdown: string): Room[] {
  const section = markdown.split("## Rooms")[1]?.split("\n## ")[0] ?? "";
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  return rows.map((row) => {
    const cells = row.split(" | ");
    const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const last = cells.at(-1) ?? "";
    return {
      members: ticks(cells[0]),
      mayImport: /everything/.test(last) ? ["*"] : ticks(last),
    };
  });
}

const covers = (path: string, file: string) => path.endsWith("/") ? file.startsWith(path) : file === path;

async function sourceFiles(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "dist") continue;
    const path = join(dir, e.name);
    if (e.isDirectory) await sourceFiles(path, out);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts") && !e.name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
  return out;
}

interface Import {
  spec: string;
  /** `import type …`, or braces holding only `type` names: loads nothing at run time. */
  typeOnly: boolean;
}

/** Relative specifiers of `import … from`, `export … from`, `import "…"` and `import("…")`. */
function importsOf(text: string): Import[] {
  const typeOnly = (clause: string) =>
    /^\s*(?:import|export)\s+type\b/.test(clause) ||
    /^\s*(?:import|export)\s*\{([^}]*)\}/.test(clause) &&
      clause.replace(/^[^{]*\{([^}]*)\}[\s\S]*$/, "$1").split(",").map((s) => s.trim()).filter(Boolean)
        .every((s) => s.startsWith("type "));
  return [
    ...[...text.matchAll(/^\s*((?:import|export)\b[^;]*?\bfrom)\s*["'](\.{1,2}\/[^"']+)["']/gms)]
      .map((m) => ({ spec: m[2], typeOnly: typeOnly(m[1]) })),
    ...[...text.matchAll(/^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm)].map((m) => ({
      spec: m[1],
      typeOnly: false,
    })),
    ...[...text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)]
      .map((m) => ({ spec: m[1], typeOnly: false })),
  ];
}

interface Analysis {
  violations: string[];
  circles: string[];
  /** Value imports between rooms (what loads what), and type-only ones (printed, not part of circles). */
  roomEdges: Map<string, Set<string>>;
  typeEdges: Map<string, Set<string>>;
}

/** Checks files (repo-relative path → text) against the rooms. */
function analyse(rooms: Room[], files: Map<string, string>): Analysis {
  const name = (r: Room) => r.members.join(" ");
  /** The most specific room holding a file. */
  const roomOf = (file: string): Room | undefined => {
    let best: Room | undefined;
    let bestLength = -1;
    for (const r of rooms) {
      for (const m of r.members) {
        if (covers(m, file) && m.length > bestLength) [best, bestLength] = [r, m.length];
      }
    }
    return best;
  };

  const violations: string[] = [];
  const roomEdges = new Map<string, Set<string>>();
  const typeEdges = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const from = roomOf(file);
    if (!from) {
      violations.push(`${file} is in no room of ARCHITECTURE.md`);
      continue;
    }
    for (const { spec, typeOnly } of importsOf(text)) {
      const target = join(dirname(file), spec);
      const to = roomOf(target);
      if (!to) {
        violations.push(`${file} imports ${target}, which is in no room`);
        continue;
      }
      if (to === from) continue;
      const allowed = from.mayImport.includes("*") || from.mayImport.some((m) => covers(m, target));
      if (!allowed) violations.push(`${file} (${name(from)}) may not import ${target} (${name(to)})`);
      const edges = typeOnly ? typeEdges : roomEdges;
      if (!edges.has(name(from))) edges.set(name(from), new Set());
      edges.get(name(from))!.add(name(to));
    }
  }

  // Circles between rooms: depth-first search for a back edge, reported with its path.
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const walk = (room: string, path: string[]) => {
    state.set(room, "open");
    for (const next of roomEdges.get(room) ?? []) {
      if (state.get(next) === "open") circles.push([...path.slice(path.indexOf(next)), next].join(" → "));
      else if (!state.has(next)) walk(next, [...path, next]);
    }
    state.set(room, "done");
  };
  for (const room of [...roomEdges.keys()].sort()) if (!state.has(room)) walk(room, [room]);
  return { violations, circles, roomEdges, typeEdges };
}

Deno.test("imports follow ARCHITECTURE.md's rooms and no rooms form a circle", async () => {
  const rooms = parseRooms(await Deno.readTextFile(join(REPO, "ARCHITECTURE.md")));
  assert.ok(rooms.length > 10, "ARCHITECTURE.md has the rooms table");
  const files = new Map<string, string>();
  for (const abs of await sourceFiles(REPO)) files.set(relative(REPO, abs), await Deno.readTextFile(abs));
  const { violations, circles, roomEdges, typeEdges } = analyse(rooms, files);

  const print = (edges: Map<string, Set<string>>) =>
    [...edges.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([from, to]) => `  ${from} → ${[...to].sort().join(", ")}`).join("\n");
  console.log(
    `import graph: ${rooms.length} rooms, ${files.size} files\nvalue imports:\n${
      print(roomEdges)
    }\ntype-only imports:\n${print(typeEdges)}`,
  );
  assert.deepEqual(violations, [], violations.join("\n"));
  assert.deepEqual(circles, [], `rooms import each other:\n${circles.join("\n")}`);
});

Deno.test("the checker catches a forbidden import and a circle, and lets type-only imports close no circle", () => {
  const rooms = parseRooms(`## Rooms

| room | holds | may import |
|---|---|---|
| \`a/\` | a | \`b/\` |
| \`b/\` | b | \`a/\` |
| \`c.ts\` | c | — |
`);
  const found = analyse(
    rooms,
    new Map([
      ["a/x.ts", 'import { y } from "../b/y.ts";\nconst z = await import("../c.ts");'],
      ["b/y.ts", 'import type { X } from "../a/x.ts";\nexport const y = 1;'],
      ["c.ts", "export {};"],
    ]),
  );
  assert.deepEqual(found.violations, ["a/x.ts (a/) may not import c.ts (c.ts)"]);
  assert.deepEqual(found.circles, [], "b → a is type-only");
  const circular = analyse(
    rooms,
    new Map([["a/x.ts", 'import { y } from "../b/y.ts";'], ["b/y.ts", 'import { x } from "../a/x.ts";']]),
  );
  assert.deepEqual(circular.circles, ["a/ → b/ → a/"]);
});
