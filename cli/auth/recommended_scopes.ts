/**
 * What `auth login --recommend` asks for: the read-only user scopes of the everyday services (calendar,
 * messenger, docs, drive, contacts, tasks, sheets, base). Read-only scopes are the ones tenant admins usually
 * pre-approve, so this login goes through without an approval round; writes are asked for with `--scope`
 * when a command needs them (its missing-scope hint names them). Taken from the reference CLI's read
 * shortcuts.
 */
export const RECOMMENDED_SCOPES: readonly string[] = [
  "calendar:calendar.event:read",
  "calendar:calendar.free_busy:read",
  "im:chat:read",
  "im:message:readonly",
  "docx:document:readonly",
  "docs:document.content:read",
  "drive:drive.metadata:readonly",
  "drive:file:download",
  "contact:user.basic_profile:readonly",
  "contact:user:search",
  "task:task:read",
  "task:tasklist:read",
  "sheets:spreadsheet:read",
  "base:app:read",
  "base:table:read",
  "base:record:read",
  "search:docs:read",
];
