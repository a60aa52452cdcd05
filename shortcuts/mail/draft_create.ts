/** `mail +draft-create`: saves a new draft (never sends; `mail +draft-send` sends it). */
import { defineShortcut, flag } from "../declare.ts";
import {
  bodyFlags,
  contentOf,
  extrasOf,
  filesOf,
  recipientFlags,
  recipientsOf,
  saveOrSend,
} from "./compose.ts";

export const draftCreate = defineShortcut({
  service: "mail",
  command: "+draft-create",
  description: "Save a new email draft (user identity only)",
  examples: [
    'larkit mail +draft-create --to bob@example.com --subject "Plan" --body "Draft of the plan"',
    'larkit mail +draft-create --subject "Notes" --body @notes.html',
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:modify", "mail:user_mailbox:readonly"] },
  hasFormat: false,
  flags: {
    ...recipientFlags,
    subject: flag.requiredString("subject"),
    body: flag.requiredString("body: HTML or plain text (detected)", { input: ["file", "stdin"] }),
    ...bodyFlags,
  },
  async run(ctx) {
    const f = ctx.flags;
    const content = contentOf(f.body, f["plain-text"]);
    await saveOrSend(ctx, { ...f, "confirm-send": false }, {
      subject: f.subject,
      // A draft may be saved before its recipients are known.
      ...recipientsOf(f, true),
      ...content,
      ...await filesOf(ctx, f, "html" in content ? content.html : undefined),
      ...extrasOf(f),
    });
  },
});
