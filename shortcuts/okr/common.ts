/**
 * What the okr shortcuts share: paths, the two levels (objective, key result), and OKR rich text -- plain
 * text becomes one paragraph per line; `--style richtext` takes the suite's block document as JSON. OKR v2
 * (objectives, key results) and v1 (progress records) spell the same block document differently.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { flag } from "../declare.ts";
import { itemsPage } from "../im/paging.ts";

export const OKR = "/open-apis/okr";
export const enc = encodeURIComponent;
export const READ = { user: ["okr:okr.content:readonly"], bot: ["okr:okr.content:readonly"] };
export const WRITE = { user: ["okr:okr.content:writeonly"], bot: ["okr:okr.content:writeonly"] };

export const levelFlag = flag.requiredChoice(["objective", "key-result"] as const, "objective or key-result");
export const styleFlag = flag.choice(
  ["simple", "richtext"] as const,
  "simple: plain text; richtext: block JSON",
  {
    default: "simple",
  },
);

export type Level = "objective" | "key-result";
/** `/okr/v2/objectives/<id>` or `/okr/v2/key_results/<id>`. */
export const itemPath = (level: Level, id: string) =>
  `${OKR}/v2/${level === "objective" ? "objectives" : "key_results"}/${enc(id)}`;

const Blocks = z.looseObject({ blocks: z.array(z.looseObject({})) });
export type Blocks = z.infer<typeof Blocks>;

/**
 * The text of `--<name>` as OKR v2 rich text (objectives and key results): each line a paragraph block,
 * typed by `block_element_type` / `paragraph_element_type`, its text in `text_run`.
 */
export function richText(name: string, text: string, style: "simple" | "richtext"): Blocks {
  if (style === "richtext") return blocksJson(name, text);
  return {
    blocks: text.split("\n").map((line) => ({
      block_element_type: "paragraph",
      paragraph: { elements: [{ paragraph_element_type: "textRun", text_run: { text: line } }] },
    })),
  };
}

/**
 * The same as OKR v1 rich text (progress records), which names the same things differently: `type` on
 * blocks and elements, the text in `textRun`.
 */
export function progressText(name: string, text: string, style: "simple" | "richtext"): Blocks {
  if (style === "richtext") return blocksJson(name, text);
  return {
    blocks: text.split("\n").map((line) => ({
      type: "paragraph",
      paragraph: { elements: [{ type: "textRun", textRun: { text: line } }] },
    })),
  };
}

/** `--style richtext`: the block document as given, once it is JSON with a `blocks` array. */
function blocksJson(name: string, text: string): Blocks {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation(`--${name} with --style richtext must be JSON ({"blocks": [...]})`);
  }
  const r = Blocks.safeParse(parsed);
  if (!r.success) throw errors.validation(`--${name} with --style richtext needs a "blocks" array`);
  return r.data;
}

type Element = { text_run?: { text?: string }; textRun?: { text?: string } };

/** Rich text (v2's `text_run` or v1's `textRun`) back to plain text, for tables and `--format pretty`. */
export function plainText(content: unknown): string {
  const blocks = (content as { blocks?: unknown[] } | undefined)?.blocks;
  if (!Array.isArray(blocks)) return typeof content === "string" ? content : "";
  return blocks.map((b) =>
    ((b as { paragraph?: { elements?: Element[] } }).paragraph?.elements ?? [])
      .map((e) => e.text_run?.text ?? e.textRun?.text ?? "").join("")
  ).join("\n");
}

/** A 0-1 number flag (scores, weights). */
export function unitNumber(name: string, text: string): number {
  const n = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || n < 0 || n > 1) {
    throw errors.validation(`--${name} must be a number from 0 to 1, got "${text}"`);
  }
  return n;
}

export const OkrItem = z.looseObject({
  id: z.string(),
  content: z.optional(z.unknown()),
  weight: z.optional(z.number()),
  score: z.optional(z.number()),
});
export const OkrPage = itemsPage(OkrItem);
