/**
 * The document a comment or permission shortcut addresses: a token or URL plus its type; a wiki page is
 * resolved to the document behind it (comments and permissions live on the document).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { DOC_TYPES, type DocType, tokenOf } from "./common.ts";

export function targetFlags() {
  return {
    token: flag.requiredString("document token or URL (a wiki URL is resolved to its document)"),
    type: flag.choice(DOC_TYPES, "document type (taken from a URL when it shows one)", { default: "docx" }),
  };
}

const URL_TYPES: Record<string, DocType> = {
  docx: "docx",
  docs: "doc",
  doc: "doc",
  sheets: "sheet",
  sheet: "sheet",
  base: "bitable",
  bitable: "bitable",
  file: "file",
  wiki: "wiki",
  mindnote: "mindnote",
  slides: "slides",
  drive: "folder",
};

/** The document's token and type, a wiki node resolved to its object through `get_node`. */
export async function resolveTarget<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  value: string,
  flagType: DocType,
): Promise<{ token: string; type: DocType }> {
  const m = value.match(/^https?:\/\/[^/]+\/([a-z]+)\//);
  const type = m ? URL_TYPES[m[1]] ?? flagType : flagType;
  const token = tokenOf(value, "token");
  if (type !== "wiki") return { token, type };
  const { node } = await ctx.api({
    method: "GET",
    path: "/open-apis/wiki/v2/spaces/get_node",
    params: { token },
    description: "resolves the wiki page to the document behind it",
    response: z.object({ node: z.looseObject({ obj_token: z.string(), obj_type: z.string() }) }),
    planned: { node: { obj_token: "<obj_token>", obj_type: "docx" } },
  });
  if (!(DOC_TYPES as readonly string[]).includes(node.obj_type)) {
    throw errors.api(`wiki page ${token} holds a ${node.obj_type}, which this command cannot address`);
  }
  return { token: node.obj_token, type: node.obj_type as DocType };
}
