/**
 * Every document the emulator holds, whichever API made it: documents (`docs`), uploaded files (`blobs`),
 * spreadsheets (`sheet_tabs`), bases (`records` and the generic apps), and files the generic drive routes
 * created (folders, copies). Drive's metas and the document search answer from it, so an object made through
 * one API is found through the others.
 */
import { all } from "./db.ts";
import type { EmulatorState } from "./state.ts";

export interface DriveDoc {
  token: string;
  type: string;
  title: string;
  /** The searchable body (a document's markdown, a sheet's cells); empty where the emulator has none. */
  text: string;
  owner: string;
  /** Seconds since the epoch, as the suite's strings; "" where unknown. */
  createTime: string;
  /** The folder it is in; "" where it is in none the emulator knows. */
  parent: string;
}

const seconds = (ms: number | null | undefined) => ms ? String(Math.floor(ms / 1000)) : "";

export function driveDocs(st: EmulatorState): DriveDoc[] {
  const db = st.db;
  const out: DriveDoc[] = [];
  for (
    const d of all<
      {
        document_id: string;
        title: string;
        markdown: string;
        owner: string;
        create_time: number;
        folder_token: string;
      }
    >(
      db,
      "SELECT document_id, title, markdown, owner, create_time, folder_token FROM docs ORDER BY create_time",
    )
  ) {
    out.push({
      token: d.document_id,
      type: "docx",
      title: d.title,
      text: d.markdown,
      owner: d.owner,
      createTime: seconds(d.create_time),
      parent: d.folder_token,
    });
  }
  for (
    const b of all<{ key: string; name: string; owner: string; create_time: number; parent: string }>(
      db,
      "SELECT key, name, owner, create_time, parent FROM blobs WHERE kind = 'drive' ORDER BY create_time",
    )
  ) {
    out.push({
      token: b.key,
      type: "file",
      title: b.name,
      text: "",
      owner: b.owner,
      createTime: seconds(b.create_time),
      parent: b.parent,
    });
  }
  for (
    const s of all<{ spreadsheet_token: string; title: string }>(
      db,
      "SELECT spreadsheet_token, group_concat(title, ' ') AS title FROM sheet_tabs GROUP BY spreadsheet_token",
    )
  ) {
    const cells = all<{ value: string }>(
      db,
      "SELECT value FROM sheet_cells WHERE spreadsheet_token = ?",
      s.spreadsheet_token,
    )
      .map((c) => String(JSON.parse(c.value))).join(" ");
    const meta = generic(st, "/open-apis/sheets/v3/spreadsheets", s.spreadsheet_token);
    out.push({
      token: s.spreadsheet_token,
      type: "sheet",
      title: typeof meta?.title === "string" ? meta.title : s.title,
      text: cells,
      owner: typeof meta?.owner_id === "string" ? meta.owner_id : "",
      createTime: "",
      parent: typeof meta?.folder_token === "string" ? meta.folder_token : "",
    });
  }
  const bases = new Map(genericAll(st, "/open-apis/bitable/v1/apps"));
  // A base known only by its records (written straight into the records table) is a base all the same.
  for (const r of all<{ app_token: string }>(db, "SELECT DISTINCT app_token FROM records")) {
    if (!bases.has(r.app_token)) bases.set(r.app_token, {});
  }
  for (const [id, body] of bases) {
    out.push({
      token: id,
      type: "bitable",
      title: String(body.name ?? ""),
      text: "",
      owner: "",
      createTime: "",
      parent: "",
    });
  }
  for (const [id, body] of genericAll(st, "/open-apis/drive/v1/files")) {
    out.push({
      token: id,
      type: String(body.type ?? "file"),
      title: String(body.name ?? body.title ?? ""),
      text: "",
      owner: String(body.owner_id ?? ""),
      createTime: String(body.created_time ?? ""),
      parent: String(body.parent_token ?? body.folder_token ?? ""),
    });
  }
  return out;
}

function genericAll(st: EmulatorState, collection: string): [string, Record<string, unknown>][] {
  return all<{ id: string; body: string }>(
    st.db,
    "SELECT id, body FROM generic_objects WHERE collection = ? AND deleted = 0 ORDER BY seq",
    collection,
  ).map((r) => [r.id, JSON.parse(r.body)]);
}

function generic(st: EmulatorState, collection: string, id: string): Record<string, unknown> | undefined {
  return genericAll(st, collection).find(([k]) => k === id)?.[1];
}
