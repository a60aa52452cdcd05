/** `docs +whiteboard-update`: the reference's docs-side name for adding to a document's whiteboard. */
import { defineShortcut } from "../declare.ts";
import { update } from "../whiteboard/board.ts";

export const whiteboardUpdate = defineShortcut({
  ...update,
  service: "docs",
  command: "+whiteboard-update",
  examples: [
    "larkit docs +whiteboard-update --whiteboard-token wbcnAbc123 --source @flow.mmd --input-format mermaid",
  ],
});
