/** The provider's own path helpers answer as `node:path` does (they replace it on the start-up path). */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { joinPath, parentDir } from "../cli/files.ts";

const JOINS: string[][] = [
  ["/home/u", ".config"],
  ["/home/u/", ".config", "larkit"],
  ["/home/u//", "./.local", "state", "larkit"],
  ["/home/u", "../x", "y/"],
  ["/", ".."],
  ["a", "..", ".."],
  ["a/b", "../../.."],
  ["", ""],
  ["", "x"],
  ["rel", "./", "z"],
  ["/a", "b/./c/../d//"],
];

Deno.test("joinPath joins and normalises as node:path's join", () => {
  for (const parts of JOINS) assert.equal(joinPath(...parts), join(...parts), JSON.stringify(parts));
});

Deno.test("parentDir answers as node:path's dirname", () => {
  for (const path of ["/a/b/c", "/a/b/", "/a", "/", "a", "a/b", "a//b", "//a", "/a//b//", ".", "", "./x"]) {
    assert.equal(parentDir(path), dirname(path), JSON.stringify(path));
  }
});
