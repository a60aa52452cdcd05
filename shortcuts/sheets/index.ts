/**
 * The sheets shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the sheets service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { append } from "./append.ts";
import { cellsClear, csvGet, csvPut } from "./csv.ts";
import { read } from "./read.ts";
import * as s from "./structure.ts";
import { write } from "./write.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  read,
  write,
  append,
  csvGet,
  csvPut,
  cellsClear,
  s.workbookCreate,
  s.workbookInfo,
  s.workbookRename,
  s.sheetList,
  s.sheetInfo,
  s.sheetCreate,
  s.sheetCopy,
  s.sheetRename,
  s.sheetHide,
  s.sheetUnhide,
  s.sheetDelete,
  s.dimFreeze,
  s.dimInsert,
  s.dimDelete,
  s.dimHide,
  s.dimUnhide,
  s.dimResize,
  s.rowsResize,
  s.colsResize,
  s.dimMove,
  s.cellsMerge,
  s.cellsUnmerge,
  s.cellsSetStyle,
  s.cellsSearch,
  s.cellsReplace,
  s.filterGet,
  s.filterCreate,
  s.filterUpdate,
  s.filterDelete,
  s.filterViewList,
  s.filterViewCreate,
  s.filterViewUpdate,
  s.filterViewDelete,
  s.dropdownGet,
  s.dropdownSet,
  s.condFormatList,
  s.floatImageList,
  s.floatImageDelete,
];
