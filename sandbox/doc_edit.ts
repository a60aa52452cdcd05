/**
 * The edit modes of the MCP `update-doc` tool over a document's markdown. A selection is either
 * `selection_with_ellipsis` ("start...end": from the first `start` through the next `end`; plain text without
 * "..." matches literally) or `selection_by_title` (a heading line and everything up to the next heading of the
 * same or higher level). Pure: markdown in, markdown or a reason out.
 */

export type UpdateMode =
  | "append"
  | "overwrite"
  | "replace_range"
  | "replace_all"
  | "insert_before"
  | "insert_after"
  | "delete_range";

export interface UpdateArgs {
  mode: UpdateMode;
  markdown?: string;
  selection_with_ellipsis?: string;
  selection_by_title?: string;
}

export type EditResult = { ok: true; markdown: string } | { ok: false; error: string };

interface Span {
  from: number;
  to: number;
}

function byEllipsis(doc: string, selection: string): Span | undefined {
  const cut = selection.indexOf("...");
  if (cut < 0) {
    const at = doc.indexOf(selection);
    return at < 0 ? undefined : { from: at, to: at + selection.length };
  }
  const start = selection.slice(0, cut);
  const end = selection.slice(cut + 3);
  const from = doc.indexOf(start);
  if (from < 0) return undefined;
  const endAt = doc.indexOf(end, from + start.length);
  return endAt < 0 ? undefined : { from, to: endAt + end.length };
}

function byTitle(doc: string, title: string): Span | undefined {
  const lines = doc.split("\n");
  const wanted = title.replace(/^#+\s*/, "").trim();
  const head = lines.findIndex((l) => /^#{1,6}\s/.test(l) && l.replace(/^#+\s*/, "").trim() === wanted);
  if (head < 0) return undefined;
  const level = lines[head].match(/^#+/)![0].length;
  let end = lines.length;
  for (let i = head + 1; i < lines.length; i++) {
    const m = lines[i].match(/^(#{1,6})\s/);
    if (m && m[1].length <= level) {
      end = i;
      break;
    }
  }
  const from = lines.slice(0, head).reduce((n, l) => n + l.length + 1, 0);
  const to = Math.min(doc.length, lines.slice(0, end).reduce((n, l) => n + l.length + 1, 0));
  return { from, to };
}

export function applyUpdate(doc: string, args: UpdateArgs): EditResult {
  const text = args.markdown ?? "";
  if (args.mode === "append") {
    return { ok: true, markdown: doc.endsWith("\n") || !doc ? doc + text : `${doc}\n${text}` };
  }
  if (args.mode === "overwrite") return { ok: true, markdown: text };
  const selection = args.selection_with_ellipsis ?? args.selection_by_title;
  if (!selection) {
    return { ok: false, error: `mode ${args.mode} needs selection_with_ellipsis or selection_by_title` };
  }
  if (args.mode === "replace_all") {
    if (!doc.includes(selection)) return { ok: false, error: "selection not found" };
    return { ok: true, markdown: doc.split(selection).join(text) };
  }
  const span = args.selection_with_ellipsis !== undefined
    ? byEllipsis(doc, args.selection_with_ellipsis)
    : byTitle(doc, args.selection_by_title!);
  if (!span) return { ok: false, error: "selection not found" };
  const before = doc.slice(0, span.from);
  const chosen = doc.slice(span.from, span.to);
  const after = doc.slice(span.to);
  switch (args.mode) {
    case "replace_range":
      return { ok: true, markdown: before + text + after };
    case "insert_before":
      return { ok: true, markdown: before + text + chosen + after };
    case "insert_after":
      return { ok: true, markdown: before + chosen + text + after };
    case "delete_range":
      return { ok: true, markdown: before + after };
  }
}
