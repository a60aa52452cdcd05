/**
 * Documents as the docs tools see them: markdown bodies with a title and a revision. Shared by the MCP tools
 * and the docx OpenAPI read endpoints.
 */
import { newHex, one, run } from "./db.ts";
import type { EmulatorState } from "./state.ts";

export interface DocRow {
  document_id: string;
  title: string;
  markdown: string;
  folder_token: string;
  revision: number;
  owner: string;
  create_time: number;
}

export function docUrl(st: EmulatorState, id: string): string {
  return `${st.origin}/docx/${id}`;
}

/** Accepts a bare document id or a document URL (`.../docx/<id>`), as the tools do. */
export function findDoc(st: EmulatorState, ref: string): DocRow | undefined {
  const id = ref.match(/\/docx\/([A-Za-z0-9]+)/)?.[1] ?? ref;
  return one<DocRow>(st.db, "SELECT * FROM docs WHERE document_id = ?", id);
}

export function createDoc(
  st: EmulatorState,
  owner: string,
  markdown: string,
  title?: string,
  folder = "",
): DocRow {
  const row: DocRow = {
    document_id: `doxcn${newHex(st.db, "doc", 22)}`,
    title: title ?? markdown.match(/^#\s+(.+)$/m)?.[1]?.trim() ?? "Untitled",
    markdown,
    folder_token: folder,
    revision: 1,
    owner,
    create_time: st.clock.now(),
  };
  run(
    st.db,
    "INSERT INTO docs (document_id, title, markdown, folder_token, revision, owner, create_time) VALUES (?, ?, ?, ?, ?, ?, ?)",
    row.document_id,
    row.title,
    row.markdown,
    row.folder_token,
    row.revision,
    row.owner,
    row.create_time,
  );
  return row;
}

export function saveDoc(st: EmulatorState, doc: DocRow, markdown: string, title?: string): DocRow {
  const next = { ...doc, markdown, title: title ?? doc.title, revision: doc.revision + 1 };
  run(
    st.db,
    "UPDATE docs SET markdown = ?, title = ?, revision = ? WHERE document_id = ?",
    next.markdown,
    next.title,
    next.revision,
    doc.document_id,
  );
  return next;
}

/** Plain text of a markdown body, as `raw_content` returns it: markup stripped, lines kept. */
export function plainText(markdown: string): string {
  return markdown
    .split("\n")
    .map((l) => l.replace(/^#{1,6}\s+/, "").replace(/^\s*[-*+]\s+/, "").replace(/[*_`]/g, ""))
    .join("\n");
}

/** A docx block as the suite lists it: the page, then one block per heading, list item or paragraph. */
export interface DocBlock {
  block_id: string;
  block_type: number;
  parent_id: string;
  children?: string[];
  [content: string]: unknown;
}

/**
 * The blocks of a document, derived from its markdown so they always say what its text says: block 1 the page
 * (its id the document's, its title the document's), then headings (types 3-8), bullets (12), ordered items
 * (13) and paragraphs (2) in order. Block ids are the document id and the block's position.
 */
export function blocksOf(doc: DocRow): DocBlock[] {
  const text = (content: string) => ({ elements: [{ text_run: { content } }], style: {} });
  const children: DocBlock[] = [];
  for (const line of doc.markdown.split("\n")) {
    if (!line.trim()) continue;
    const id = `${doc.document_id}_${children.length + 1}`;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const ordered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const base = { block_id: id, parent_id: doc.document_id };
    if (heading) {
      const level = heading[1].length;
      children.push({ ...base, block_type: 2 + level, [`heading${level}`]: text(heading[2]) });
    } else if (bullet) children.push({ ...base, block_type: 12, bullet: text(bullet[1]) });
    else if (ordered) children.push({ ...base, block_type: 13, ordered: text(ordered[1]) });
    else children.push({ ...base, block_type: 2, text: text(line) });
  }
  const page: DocBlock = {
    block_id: doc.document_id,
    block_type: 1,
    parent_id: "",
    children: children.map((b) => b.block_id),
    page: text(doc.title),
  };
  return [page, ...children];
}
