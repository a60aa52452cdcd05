/**
 * The wiki shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run builds
 * the wiki service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { memberAdd, memberList, memberRemove } from "./members.ts";
import { move, moveToDrive } from "./move.ts";
import { nodeCopy, nodeCreate, nodeDelete, nodeGet, nodeList } from "./nodes.ts";
import { deleteSpace, spaceCreate, spaceList } from "./spaces.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  spaceList,
  spaceCreate,
  deleteSpace,
  nodeList,
  nodeGet,
  nodeCreate,
  nodeCopy,
  nodeDelete,
  move,
  moveToDrive,
  memberList,
  memberAdd,
  memberRemove,
];
