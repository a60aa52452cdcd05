/**
 * `mail +send`: composes an email -- plain text or HTML (detected from the body, or forced with
 * `--plain-text`), to/cc/bcc, local files as attachments or inline images -- and SAVES IT AS A DRAFT. Only `--confirm-send`
 * (given after the user confirmed) sends it, now or at `--send-time`; sent mail cannot be recalled.
 */
import { defineShortcut, flag } from "../declare.ts";
import {
  bodyFlags,
  contentOf,
  extrasOf,
  filesOf,
  recipientFlags,
  recipientsOf,
  saveOrSend,
  sendFlags,
} from "./compose.ts";

export const send = defineShortcut({
  service: "mail",
  command: "+send",
  description: "Compose an email and save it as a draft; --confirm-send sends it (user identity only)",
  examples: [
    'larkit mail +send --to bob@example.com --subject "Report" --body "Attached." --attach ./report.pdf',
    "larkit mail +send --to a@example.com,b@example.com --subject Update --body @update.html --confirm-send",
    'larkit mail +send --to bob@example.com --subject Hi --body "See you" --confirm-send --send-time 2026-11-24T09:00',
    `larkit mail +send --to bob@example.com --subject Logo --body '<p>Ours: <img src="cid:logo"></p>' --inline '[{"cid":"logo","file_path":"./logo.png"}]'`,
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: {
    user: [
      "mail:user_mailbox.message:send",
      "mail:user_mailbox.message:modify",
      "mail:user_mailbox:readonly",
    ],
  },
  hasFormat: false,
  flags: {
    ...recipientFlags,
    subject: flag.requiredString("subject"),
    body: flag.requiredString("body: HTML or plain text (detected)", { input: ["file", "stdin"] }),
    ...bodyFlags,
    ...sendFlags,
  },
  async run(ctx) {
    const f = ctx.flags;
    const content = contentOf(f.body, f["plain-text"]);
    await saveOrSend(ctx, f, {
      subject: f.subject,
      ...recipientsOf(f),
      ...content,
      ...await filesOf(ctx, f, "html" in content ? content.html : undefined),
      ...extrasOf(f),
    });
  },
});
