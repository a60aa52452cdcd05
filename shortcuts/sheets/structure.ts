/**
 * Workbooks and sheets (create, info, add/copy/rename/hide/delete a sheet, freeze), rows and columns (insert,
 * delete, hide, resize, move), merges, styles, find/replace, filters, filter views, dropdowns, conditional
 * formats and floating images -- each one sheets v2 or v3 call. Deletions ask for confirmation.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { type Request, sheetV3, simple, type Target, v2, v3 } from "./simple.ts";

const S = "--spreadsheet-token shtcnAbc123";
const enc = encodeURIComponent;

function batch(t: Target, request: unknown): Request {
  return { method: "POST", path: `${v2(t.token)}/sheets_batch_update`, body: { requests: [request] } };
}

/** A bool flag given as text (`true`/`false`), absent when not given. */
function boolText(name: string, v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (v !== "true" && v !== "false") throw errors.validation(`--${name} must be true or false, got "${v}"`);
  return v === "true";
}

function cellsOf(t: Target): string {
  if (!t.cells) {
    throw errors.validation("--range must name cells, e.g. A1:C3 (with --sheet-id) or <sheetId>!A1:C3");
  }
  return `${t.sheetId}!${t.cells}`;
}

function count(name: string, v: string | undefined, min = 0): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{1,7}$/.test(v) || Number(v) < min) {
    throw errors.validation(`--${name} must be a whole number \u2265 ${min}, got "${v}"`);
  }
  return Number(v);
}

// ---- workbook ----

export const workbookCreate = defineShortcut({
  service: "sheets",
  command: "+workbook-create",
  description: "Create a spreadsheet (optionally in a Drive folder)",
  examples: ['larkit sheets +workbook-create --title "Q4 budget"'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:create"], bot: ["sheets:spreadsheet:create"] },
  hasFormat: false,
  flags: {
    title: flag.requiredString("spreadsheet title"),
    "folder-token": flag.string("Drive folder token"),
  },
  async run(ctx) {
    const folder = ctx.flags["folder-token"];
    if (folder !== undefined && !/^[\w-]+$/.test(folder)) {
      throw errors.validation(`--folder-token "${folder}" is not a token`);
    }
    const data = await ctx.api({
      method: "POST",
      path: "/open-apis/sheets/v3/spreadsheets",
      body: { title: ctx.flags.title, ...(folder ? { folder_token: folder } : {}) },
      response: z.looseObject({
        spreadsheet: z.optional(z.looseObject({ spreadsheet_token: z.optional(z.string()) })),
      }),
      planned: { spreadsheet: { spreadsheet_token: "<spreadsheet_token>" } },
    });
    await ctx.out(data);
  },
});

export const workbookInfo = simple({
  command: "+workbook-info",
  description: "Show a spreadsheet's title, owner and URL",
  examples: [`larkit sheets +workbook-info ${S}`],
  risk: "read",
  sheet: false,
  flags: {},
  request: (t) => ({ method: "GET", path: v3(t.token) }),
});

export const workbookRename = simple({
  command: "+workbook-rename",
  description: "Rename a spreadsheet",
  examples: [`larkit sheets +workbook-rename ${S} --title "Q4 budget (final)"`],
  risk: "write",
  sheet: false,
  flags: { title: flag.requiredString("new title") },
  request: (t, f) => ({ method: "PATCH", path: v3(t.token), body: { title: f.title } }),
});

export const sheetList = simple({
  command: "+sheet-list",
  description: "List a spreadsheet's sheets (IDs, titles, sizes, hidden)",
  examples: [`larkit sheets +sheet-list ${S}`],
  risk: "read",
  sheet: false,
  flags: {},
  request: (t) => ({ method: "GET", path: `${v3(t.token)}/sheets/query` }),
});

export const sheetInfo = simple({
  command: "+sheet-info",
  description: "Show one sheet: title, index, size, frozen rows and columns, merges",
  examples: [`larkit sheets +sheet-info ${S} --sheet-id 0b12cd`],
  risk: "read",
  flags: {},
  request: (t) => ({ method: "GET", path: sheetV3(t) }),
});

export const sheetCreate = simple({
  command: "+sheet-create",
  description: "Add a sheet to a spreadsheet",
  examples: [`larkit sheets +sheet-create ${S} --title March --index 2`],
  risk: "write",
  sheet: false,
  flags: { title: flag.requiredString("sheet title"), index: flag.string("position (0 = first)") },
  request: (t, f) =>
    batch(t, { addSheet: { properties: { title: f.title, index: count("index", f.index) } } }),
});

export const sheetCopy = simple({
  command: "+sheet-copy",
  description: "Copy a sheet within its spreadsheet",
  examples: [`larkit sheets +sheet-copy ${S} --sheet-id 0b12cd --title "March (copy)"`],
  risk: "write",
  flags: { title: flag.string("title of the copy") },
  request: (t, f) =>
    batch(t, { copySheet: { source: { sheetId: t.sheetId }, destination: { title: f.title } } }),
});

export const sheetRename = simple({
  command: "+sheet-rename",
  description: "Rename a sheet",
  examples: [`larkit sheets +sheet-rename ${S} --sheet-id 0b12cd --title April`],
  risk: "write",
  flags: { title: flag.requiredString("new title") },
  request: (t, f) => batch(t, { updateSheet: { properties: { sheetId: t.sheetId, title: f.title } } }),
});

function visibility(command: "+sheet-hide" | "+sheet-unhide", hidden: boolean) {
  return simple({
    command,
    description: hidden ? "Hide a sheet (its data stays)" : "Show a hidden sheet again",
    examples: [`larkit sheets ${command} ${S} --sheet-id 0b12cd`],
    risk: "write",
    flags: {},
    request: (t) => batch(t, { updateSheet: { properties: { sheetId: t.sheetId, hidden } } }),
    echo: () => ({ hidden }),
  });
}
export const sheetHide = visibility("+sheet-hide", true);
export const sheetUnhide = visibility("+sheet-unhide", false);

export const sheetDelete = simple({
  command: "+sheet-delete",
  description: "Delete a sheet and its data (cannot be undone; asks for confirmation)",
  examples: [`larkit sheets +sheet-delete ${S} --sheet-id 0b12cd --yes`],
  risk: "high-risk-write",
  named: true,
  flags: {},
  request: (t) => batch(t, { deleteSheet: { sheetId: t.sheetId } }),
});

export const dimFreeze = simple({
  command: "+dim-freeze",
  description: "Freeze the first rows and/or columns of a sheet (0 unfreezes)",
  examples: [`larkit sheets +dim-freeze ${S} --sheet-id 0b12cd --rows 1`],
  risk: "write",
  flags: { rows: flag.string("rows to freeze"), cols: flag.string("columns to freeze") },
  request: (t, f) => {
    const rows = count("rows", f.rows);
    const cols = count("cols", f.cols);
    if (rows === undefined && cols === undefined) throw errors.validation("give --rows, --cols or both");
    return batch(t, {
      updateSheet: {
        properties: {
          sheetId: t.sheetId,
          ...(rows !== undefined ? { frozenRowCount: rows } : {}),
          ...(cols !== undefined ? { frozenColCount: cols } : {}),
        },
      },
    });
  },
});

// ---- rows and columns ----

const dimFlags = {
  dimension: flag.requiredChoice(["rows", "cols"] as const, "rows or cols"),
  "start-index": flag.requiredString("first row/column, 0-based"),
  "end-index": flag.requiredString("row/column after the last, 0-based (start 2, end 4 = rows 3 and 4)"),
};
type DimFlags = { dimension: "rows" | "cols"; "start-index": string; "end-index": string };
function dimension(t: Target, f: DimFlags) {
  const start = count("start-index", f["start-index"]) as number;
  const end = count("end-index", f["end-index"], 1) as number;
  if (end <= start) throw errors.validation("--end-index must be greater than --start-index");
  if (end - start > 5000) {
    throw errors.validation("at most 5000 rows or columns per call (the suite's limit)");
  }
  return {
    sheetId: t.sheetId,
    majorDimension: f.dimension === "rows" ? "ROWS" : "COLUMNS",
    startIndex: start,
    endIndex: end,
  };
}

export const dimInsert = simple({
  command: "+dim-insert",
  description: "Insert empty rows or columns",
  examples: [
    `larkit sheets +dim-insert ${S} --sheet-id 0b12cd --dimension rows --start-index 2 --end-index 5`,
  ],
  risk: "write",
  flags: {
    ...dimFlags,
    "inherit-style": flag.choice(
      ["none", "BEFORE", "AFTER"] as const,
      "copy the style of the row/column before or after",
      { default: "none" },
    ),
  },
  request: (t, f) => ({
    method: "POST",
    path: `${v2(t.token)}/insert_dimension_range`,
    body: {
      dimension: dimension(t, f),
      ...(f["inherit-style"] !== "none" ? { inheritStyle: f["inherit-style"] } : {}),
    },
  }),
});

export const dimDelete = simple({
  command: "+dim-delete",
  description: "Delete rows or columns and their data (asks for confirmation)",
  examples: [
    `larkit sheets +dim-delete ${S} --sheet-id 0b12cd --dimension cols --start-index 3 --end-index 4 --yes`,
  ],
  risk: "high-risk-write",
  flags: dimFlags,
  request: (t, f) => ({
    method: "DELETE",
    path: `${v2(t.token)}/dimension_range`,
    body: { dimension: dimension(t, f) },
  }),
});

function dimProps(
  command: `+${string}`,
  description: string,
  props: (f: Record<string, unknown>) => Record<string, unknown>,
  extra = {},
) {
  return simple({
    command,
    description,
    examples: [
      `larkit sheets ${command} ${S} --sheet-id 0b12cd --dimension rows --start-index 0 --end-index 3${
        command.includes("resize") ? " --size 40" : ""
      }`,
    ],
    risk: "write",
    flags: { ...dimFlags, ...extra },
    request: (t, f) => ({
      method: "PUT",
      path: `${v2(t.token)}/dimension_range`,
      body: { dimension: dimension(t, f), dimensionProperties: props(f) },
    }),
  });
}
export const dimHide = dimProps("+dim-hide", "Hide rows or columns", () => ({ visible: false }));
export const dimUnhide = dimProps("+dim-unhide", "Show hidden rows or columns", () => ({ visible: true }));
export const dimResize = dimProps(
  "+dim-resize",
  "Set the height of rows or the width of columns (pixels)",
  (f) => ({ fixedSize: count("size", f.size as string, 1) }),
  { size: flag.requiredString("height or width in pixels") },
);

export const dimMove = simple({
  command: "+dim-move",
  description: "Move rows or columns to another position",
  examples: [
    `larkit sheets +dim-move ${S} --sheet-id 0b12cd --dimension rows --start-index 5 --end-index 7 --to 1`,
  ],
  risk: "write",
  flags: { ...dimFlags, to: flag.requiredString("0-based position to move them before") },
  request: (t, f) => {
    const d = dimension(t, f);
    return {
      method: "POST",
      path: `${sheetV3(t)}/move_dimension`,
      body: {
        source: { major_dimension: d.majorDimension, start_index: d.startIndex, end_index: d.endIndex - 1 },
        destination_index: count("to", f.to),
      },
    };
  },
});

// ---- cells ----

export const cellsMerge = simple({
  command: "+cells-merge",
  description: "Merge cells: all into one, or row by row, or column by column",
  examples: [`larkit sheets +cells-merge ${S} --sheet-id 0b12cd --range A1:C1`],
  risk: "write",
  flags: {
    "merge-type": flag.choice(["MERGE_ALL", "MERGE_ROWS", "MERGE_COLUMNS"] as const, "how to merge", {
      default: "MERGE_ALL",
    }),
  },
  request: (t, f) => ({
    method: "POST",
    path: `${v2(t.token)}/merge_cells`,
    body: { range: cellsOf(t), mergeType: f["merge-type"] },
  }),
});

export const cellsUnmerge = simple({
  command: "+cells-unmerge",
  description: "Split merged cells in a range",
  examples: [`larkit sheets +cells-unmerge ${S} --sheet-id 0b12cd --range A1:C1`],
  risk: "write",
  flags: {},
  request: (t) => ({ method: "POST", path: `${v2(t.token)}/unmerge_cells`, body: { range: cellsOf(t) } }),
});

export const cellsSetStyle = simple({
  command: "+cells-set-style",
  description: "Style a range: bold, italic, font size, colours, alignment",
  examples: [
    `larkit sheets +cells-set-style ${S} --sheet-id 0b12cd --range A1:D1 --bold true --background-color "#FFF2CC"`,
  ],
  risk: "write",
  flags: {
    bold: flag.string("true or false"),
    italic: flag.string("true or false"),
    "font-size": flag.string("font size, e.g. 10pt/1.5"),
    "font-color": flag.string("text colour, #RRGGBB"),
    "background-color": flag.string("fill colour, #RRGGBB"),
    "h-align": flag.string("0 left, 1 centre, 2 right"),
  },
  request: (t, f) => {
    const color = (name: string, v: string | undefined) => {
      if (v !== undefined && !/^#[0-9a-fA-F]{6}$/.test(v)) {
        throw errors.validation(`--${name} must be #RRGGBB, got "${v}"`);
      }
      return v;
    };
    const font = {
      ...(f.bold !== undefined ? { bold: boolText("bold", f.bold) } : {}),
      ...(f.italic !== undefined ? { italic: boolText("italic", f.italic) } : {}),
      ...(f["font-size"] ? { fontSize: f["font-size"] } : {}),
    };
    const style = {
      ...(Object.keys(font).length ? { font } : {}),
      ...(f["font-color"] ? { foreColor: color("font-color", f["font-color"]) } : {}),
      ...(f["background-color"] ? { backColor: color("background-color", f["background-color"]) } : {}),
      ...(f["h-align"] !== undefined ? { hAlign: count("h-align", f["h-align"]) } : {}),
    };
    if (!Object.keys(style).length) throw errors.validation("give at least one style flag");
    return {
      method: "PUT",
      path: `${v2(t.token)}/style`,
      body: { appendStyle: { range: cellsOf(t), style } },
    };
  },
});

const findFlags = {
  find: flag.requiredString("text (or pattern with --regex) to look for"),
  "match-case": flag.boolean("case-sensitive"),
  "match-entire-cell": flag.boolean("the whole cell must match"),
  regex: flag.boolean("--find is a regular expression"),
  "include-formulas": flag.boolean("search formulas too"),
};
type FindFlags = {
  find: string;
  "match-case": boolean;
  "match-entire-cell": boolean;
  regex: boolean;
  "include-formulas": boolean;
};
function findBody(t: Target, f: FindFlags) {
  if (f.regex) {
    try {
      new RegExp(f.find);
    } catch {
      throw errors.validation(`--find is not a valid regular expression: ${f.find}`);
    }
  }
  return {
    find_condition: {
      range: t.cells ? `${t.sheetId}!${t.cells}` : t.sheetId,
      match_case: f["match-case"],
      match_entire_cell: f["match-entire-cell"],
      search_by_regex: f.regex,
      include_formulas: f["include-formulas"],
    },
    find: f.find,
  };
}

export const cellsSearch = simple({
  command: "+cells-search",
  description: "Find the cells matching a text or pattern",
  examples: [`larkit sheets +cells-search ${S} --sheet-id 0b12cd --find "total"`],
  risk: "read",
  flags: findFlags,
  request: (t, f) => ({ method: "POST", path: `${sheetV3(t)}/find`, body: findBody(t, f) }),
});

export const cellsReplace = simple({
  command: "+cells-replace",
  description: "Replace a text or pattern in the cells of a sheet or range",
  examples: [`larkit sheets +cells-replace ${S} --sheet-id 0b12cd --find "2025" --replacement "2026"`],
  risk: "write",
  flags: { ...findFlags, replacement: flag.requiredString("the new text") },
  request: (t, f) => ({
    method: "POST",
    path: `${sheetV3(t)}/replace`,
    body: { ...findBody(t, f), replacement: f.replacement },
  }),
});

// ---- filters, filter views ----

const conditionFlag = flag.json('condition JSON: {"filter_type": "multiValue", "expected": ["Done"]}', {
  input: ["file", "stdin"],
});
function condition(v: unknown) {
  if (
    typeof v !== "object" || v === null || Array.isArray(v) ||
    typeof (v as { filter_type?: unknown }).filter_type !== "string"
  ) {
    throw errors.validation('--condition needs "filter_type" (e.g. multiValue, number, text, color)');
  }
  return v;
}

export const filterGet = simple({
  command: "+filter-list",
  description: "Show a sheet's filter: its range and column conditions",
  examples: [`larkit sheets +filter-list ${S} --sheet-id 0b12cd`],
  risk: "read",
  flags: {},
  request: (t) => ({ method: "GET", path: `${sheetV3(t)}/filter` }),
});

export const filterCreate = simple({
  command: "+filter-create",
  description: "Turn on a sheet's filter over a range with a condition on one column",
  examples: [
    `larkit sheets +filter-create ${S} --sheet-id 0b12cd --range A1:E100 --col E --condition '{"filter_type":"multiValue","expected":["Done"]}'`,
  ],
  risk: "write",
  flags: { col: flag.requiredString("column letter the condition is on"), condition: conditionFlag },
  request: (t, f) => ({
    method: "POST",
    path: `${sheetV3(t)}/filter`,
    body: { range: cellsOf(t), col: f.col, condition: condition(f.condition) },
  }),
});

export const filterUpdate = simple({
  command: "+filter-update",
  description: "Change the condition on one column of a sheet's filter",
  examples: [
    `larkit sheets +filter-update ${S} --sheet-id 0b12cd --col E --condition '{"filter_type":"multiValue","expected":["Open"]}'`,
  ],
  risk: "write",
  flags: { col: flag.requiredString("column letter"), condition: conditionFlag },
  request: (t, f) => ({
    method: "PUT",
    path: `${sheetV3(t)}/filter`,
    body: { col: f.col, condition: condition(f.condition) },
  }),
});

export const filterDelete = simple({
  command: "+filter-delete",
  description: "Remove a sheet's filter (asks for confirmation)",
  examples: [`larkit sheets +filter-delete ${S} --sheet-id 0b12cd --yes`],
  risk: "high-risk-write",
  flags: {},
  request: (t) => ({ method: "DELETE", path: `${sheetV3(t)}/filter` }),
});

export const filterViewList = simple({
  command: "+filter-view-list",
  description: "List a sheet's filter views",
  examples: [`larkit sheets +filter-view-list ${S} --sheet-id 0b12cd`],
  risk: "read",
  flags: {},
  request: (t) => ({ method: "GET", path: `${sheetV3(t)}/filter_views/query` }),
});

export const filterViewCreate = simple({
  command: "+filter-view-create",
  description: "Create a filter view over a range",
  examples: [
    `larkit sheets +filter-view-create ${S} --sheet-id 0b12cd --range A1:E100 --view-name "Open items"`,
  ],
  risk: "write",
  flags: { "view-name": flag.string("name of the filter view") },
  request: (t, f) => ({
    method: "POST",
    path: `${sheetV3(t)}/filter_views`,
    body: { range: cellsOf(t), ...(f["view-name"] ? { filter_view_name: f["view-name"] } : {}) },
  }),
});

const viewIdFlag = { "view-id": flag.requiredString("filter view ID") };

export const filterViewUpdate = simple({
  command: "+filter-view-update",
  description: "Rename a filter view or change its range",
  examples: [
    `larkit sheets +filter-view-update ${S} --sheet-id 0b12cd --view-id pH9hbVcCXA --view-name "Done"`,
  ],
  risk: "write",
  flags: { ...viewIdFlag, "view-name": flag.string("new name") },
  request: (t, f) => {
    const body = {
      ...(f["view-name"] ? { filter_view_name: f["view-name"] } : {}),
      ...(t.cells ? { range: cellsOf(t) } : {}),
    };
    if (!Object.keys(body).length) throw errors.validation("give --view-name or --range");
    return { method: "PATCH", path: `${sheetV3(t)}/filter_views/${enc(f["view-id"])}`, body };
  },
});

export const filterViewDelete = simple({
  command: "+filter-view-delete",
  description: "Delete a filter view (asks for confirmation)",
  examples: [`larkit sheets +filter-view-delete ${S} --sheet-id 0b12cd --view-id pH9hbVcCXA --yes`],
  risk: "high-risk-write",
  flags: viewIdFlag,
  request: (t, f) => ({ method: "DELETE", path: `${sheetV3(t)}/filter_views/${enc(f["view-id"])}` }),
});

// ---- dropdowns, conditional formats, floating images ----

export const dropdownGet = simple({
  command: "+dropdown-get",
  description: "Show the dropdown lists set on a range",
  examples: [`larkit sheets +dropdown-get ${S} --sheet-id 0b12cd --range B2:B100`],
  risk: "read",
  flags: {},
  request: (t) => ({
    method: "GET",
    path: `${v2(t.token)}/dataValidation`,
    params: { range: cellsOf(t), dataValidationType: "list" },
  }),
});

export const dropdownSet = simple({
  command: "+dropdown-set",
  description: "Put a dropdown list on a range",
  examples: [`larkit sheets +dropdown-set ${S} --sheet-id 0b12cd --range B2:B100 --options Open,Doing,Done`],
  risk: "write",
  flags: {
    options: flag.requiredString("choices, comma-separated (at most 500)"),
    multiple: flag.boolean("allow several choices per cell"),
  },
  request: (t, f) => {
    const options = f.options.split(",").map((s) => s.trim()).filter(Boolean);
    if (!options.length || options.length > 500) throw errors.validation("--options needs 1 to 500 choices");
    return {
      method: "POST",
      path: `${v2(t.token)}/dataValidation`,
      body: {
        range: cellsOf(t),
        dataValidationType: "list",
        dataValidation: { conditionValues: options, options: { multipleValues: f.multiple } },
      },
    };
  },
});

export const condFormatList = simple({
  command: "+cond-format-list",
  description: "List a sheet's conditional formats",
  examples: [`larkit sheets +cond-format-list ${S} --sheet-id 0b12cd`],
  risk: "read",
  flags: {},
  request: (t) => ({
    method: "GET",
    path: `${v2(t.token)}/sheets/condition_formats`,
    params: { sheet_ids: t.sheetId },
  }),
});

export const floatImageList = simple({
  command: "+float-image-list",
  description: "List the floating images of a sheet",
  examples: [`larkit sheets +float-image-list ${S} --sheet-id 0b12cd`],
  risk: "read",
  flags: {},
  request: (t) => ({ method: "GET", path: `${sheetV3(t)}/float_images/query` }),
});

export const floatImageDelete = simple({
  command: "+float-image-delete",
  description: "Delete a floating image (asks for confirmation)",
  examples: [`larkit sheets +float-image-delete ${S} --sheet-id 0b12cd --float-image-id ye06SS14ph --yes`],
  risk: "high-risk-write",
  flags: { "float-image-id": flag.requiredString("floating image ID") },
  request: (t, f) => ({ method: "DELETE", path: `${sheetV3(t)}/float_images/${enc(f["float-image-id"])}` }),
});

/** `+rows-resize` / `+cols-resize`: `+dim-resize` with the dimension fixed, under the reference's names. */
function resize(command: "+rows-resize" | "+cols-resize", dim: "rows" | "cols") {
  const what = dim === "rows" ? "height of rows" : "width of columns";
  return simple({
    command,
    description: `Set the ${what} (pixels)`,
    examples: [`larkit sheets ${command} ${S} --sheet-id 0b12cd --start-index 0 --end-index 3 --size 40`],
    risk: "write",
    flags: {
      "start-index": dimFlags["start-index"],
      "end-index": dimFlags["end-index"],
      size: flag.requiredString(`${what.split(" ")[0]} in pixels`),
    },
    request: (t, f) => ({
      method: "PUT",
      path: `${v2(t.token)}/dimension_range`,
      body: {
        dimension: dimension(t, { ...f, dimension: dim }),
        dimensionProperties: { fixedSize: count("size", f.size, 1) },
      },
    }),
  });
}
export const rowsResize = resize("+rows-resize", "rows");
export const colsResize = resize("+cols-resize", "cols");
