/**
 * The task shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the task service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { complete } from "./complete.ts";
import { create } from "./create.ts";
import {
  relatedTasks,
  search,
  tasklistCreate,
  tasklistMembers,
  tasklistSearch,
  tasklistTaskAdd,
} from "./lists.ts";
import { assign, comment, followers, reminder, reopen, setAncestor, update } from "./members.ts";
import { myTasks } from "./my_tasks.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  create,
  myTasks,
  complete,
  update,
  reopen,
  comment,
  assign,
  followers,
  reminder,
  setAncestor,
  search,
  relatedTasks,
  tasklistCreate,
  tasklistTaskAdd,
  tasklistMembers,
  tasklistSearch,
];
