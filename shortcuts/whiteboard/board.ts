/**
 * Whiteboards: `+query` (the nodes, as JSON), `+export` (a PNG of the board), `+update` (adds nodes, or a
 * PlantUML/Mermaid diagram). `+update` only adds: the suite has no call that replaces a board's nodes without
 * losing the ones it cannot recreate, so nothing already on the board is removed. Not keyed: the emulator
 * cannot yet show the suite's client_token de-duplication, so a lost answer is reported, never retried.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { tokenOf } from "../drive/common.ts";

const base = (id: string) =>
  `/open-apis/board/v1/whiteboards/${encodeURIComponent(tokenOf(id, "whiteboard-token"))}`;
const Node = z.looseObject({ id: z.string(), type: z.optional(z.string()), text: z.optional(z.unknown()) });
const tokenFlag = {
  "whiteboard-token": flag.requiredString("whiteboard token (a docx whiteboard block's token)"),
};

export const query = defineShortcut({
  service: "whiteboard",
  command: "+query",
  description: "Read a whiteboard's nodes (shapes, text, connectors) as JSON",
  examples: [
    "larkit whiteboard +query --whiteboard-token wbcnAbc123",
    "larkit whiteboard +query --whiteboard-token wbcnAbc123 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["board:whiteboard:node:read"], bot: ["board:whiteboard:node:read"] },
  hasFormat: true,
  columns: ["type", {
    name: "text",
    value: (n) => {
      const t = (n as { text?: unknown }).text;
      return typeof t === "object" && t !== null && "text" in t ? (t as { text: unknown }).text : t;
    },
  }, "id"],
  flags: tokenFlag,
  async run(ctx) {
    const { nodes } = await ctx.api({
      method: "GET",
      path: `${base(ctx.flags["whiteboard-token"])}/nodes`,
      response: z.object({ nodes: z._default(z.array(Node), []) }),
      planned: { nodes: [] },
    });
    await ctx.outFormat(
      nodes,
      { count: nodes.length },
      (d) =>
        (d as z.infer<typeof Node>[]).map((n) => `${n.id}  ${n.type ?? ""}`).join("\n") || "empty whiteboard",
    );
  },
});

export const exportBoard = defineShortcut({
  service: "whiteboard",
  command: "+export",
  description: "Save a whiteboard as a PNG image",
  examples: ["larkit whiteboard +export --whiteboard-token wbcnAbc123 --output board.png"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["board:whiteboard:node:read"], bot: ["board:whiteboard:node:read"] },
  hasFormat: true,
  flags: {
    ...tokenFlag,
    output: flag.string("local path (default: <whiteboard-token>.png)"),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const id = tokenOf(ctx.flags["whiteboard-token"], "whiteboard-token");
    const saved = await ctx.download({
      path: `${base(id)}/download_as_image`,
      output: ctx.flags.output,
      overwrite: ctx.flags.overwrite,
      nameOf: () => undefined,
      fallbackName: `${id}.png`,
    });
    await ctx.outFormat({ whiteboard_token: id, ...saved });
  },
});

const SYNTAX = { plantuml: 1, mermaid: 2 } as const;

export const update = defineShortcut({
  service: "whiteboard",
  command: "+update",
  description:
    "Add to a whiteboard: nodes as JSON, or a PlantUML/Mermaid diagram (adds only; existing nodes are kept, never replaced)",
  examples: [
    "larkit whiteboard +update --whiteboard-token wbcnAbc123 --source @flow.mmd --input-format mermaid",
    "larkit whiteboard +update --whiteboard-token wbcnAbc123 --source @nodes.json --input-format nodes",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["board:whiteboard:node:create"], bot: ["board:whiteboard:node:create"] },
  hasFormat: false,
  flags: {
    ...tokenFlag,
    source: flag.requiredString("diagram source, or a JSON array of nodes", { input: ["file", "stdin"] }),
    "input-format": flag.requiredChoice(["plantuml", "mermaid", "nodes"] as const, "what --source is"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const path = base(f["whiteboard-token"]);
    if (f["input-format"] === "nodes") {
      let nodes: unknown;
      try {
        nodes = JSON.parse(f.source);
      } catch {
        throw errors.validation("--source: with --input-format nodes it must be a JSON array of nodes");
      }
      if (!Array.isArray(nodes) || nodes.length === 0) {
        throw errors.validation("--source: a non-empty JSON array of nodes");
      }
      const { ids } = await ctx.api({
        method: "POST",
        path: `${path}/nodes`,
        body: { nodes },
        response: z.object({ ids: z._default(z.array(z.string()), []) }),
        planned: { ids: [] },
      });
      return await ctx.out({ added: ids.length, ids });
    }
    const diagram = await ctx.api({
      method: "POST",
      path: `${path}/nodes/plantuml`,
      body: { plant_uml_code: f.source, syntax_type: SYNTAX[f["input-format"]], style_type: 1 },
      response: z.looseObject({ node_id: z.string() }),
      planned: { node_id: "<node_id>" },
    });
    await ctx.out({ added: 1, node_id: diagram.node_id });
  },
});
