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
