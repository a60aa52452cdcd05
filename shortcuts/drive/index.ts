/**
 * The drive shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the drive service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import * as comments from "./comments.ts";
import { download } from "./download.ts";
import * as files from "./files.ts";
import * as permissions from "./permissions.ts";
import * as transfer from "./transfer.ts";
import { upload } from "./upload.ts";
import * as versions from "./versions.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  upload,
  download,
  files.createFolder,
  files.createShortcut,
  files.copy,
  files.move,
  files.deleteFile,
  files.updateTitle,
  files.inspect,
  comments.addComment,
  comments.listComments,
  comments.batchQueryComments,
  comments.resolveComment,
  comments.restoreComment,
  comments.addReply,
  comments.listReplies,
  comments.updateReply,
  comments.deleteReply,
  comments.reactReply,
  permissions.memberList,
  permissions.memberAdd,
  permissions.memberRemove,
  permissions.permissionGetSetting,
  permissions.applyPermission,
  permissions.secureLabelList,
  permissions.secureLabelUpdate,
  versions.versionHistory,
  versions.versionGet,
  versions.versionRevert,
  versions.versionDelete,
  transfer.importFile,
  transfer.exportFile,
  transfer.exportDownload,
  transfer.taskResult,
  transfer.preview,
  transfer.cover,
  transfer.search,
];
