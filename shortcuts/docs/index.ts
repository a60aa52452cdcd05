/**
 * The docs shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the docs service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { createDoc } from "./create.ts";
import { fetchDoc } from "./fetch.ts";
import { historyList, historyRevert, historyRevertStatus } from "./history.ts";
import { mediaDownload, mediaPreview, mediaUpload, search } from "./media.ts";
import { resourceDelete, resourceDownload, resourceUpdate } from "./resource.ts";
import { updateDoc } from "./update.ts";
import { whiteboardUpdate } from "./whiteboard_update.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  createDoc,
  fetchDoc,
  updateDoc,
  search,
  historyList,
  historyRevert,
  historyRevertStatus,
  mediaUpload,
  mediaDownload,
  mediaPreview,
  whiteboardUpdate,
  resourceDownload,
  resourceUpdate,
  resourceDelete,
];
