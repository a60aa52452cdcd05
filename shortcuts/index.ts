/**
 * THE list of services that have shortcuts. Adding a shortcut = one new file under `shortcuts/<service>/` and
 * one line in that service's `shortcuts/<service>/index.ts`; a new service = one entry here. A run loads only
 * the service it builds (start-up), so what help and strict mode need of an unbuilt service (its description and
 * the identities its shortcuts support) is declared here; `shortcuts/index_test.ts` checks it against the
 * shortcuts themselves.
 */
import type { Identity } from "../cli/output/envelope.ts";
import type { FlagSpecs, Shortcut } from "./declare.ts";
import { lazy } from "../cli/lazy.ts";

export interface ShortcutService {
  /** Help text of the service (the registry's own description wins where it has one). */
  description: string;
  /** Union of its shortcuts' `authTypes`, in the order they first appear. */
  identities: Identity[];
  load(): Promise<Shortcut<FlagSpecs>[]>;
}

export const SHORTCUT_SERVICES: Record<string, ShortcutService> = {
  calendar: {
    description: "Calendar: agenda, events, free/busy, invitations",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/calendar/index.ts")).SHORTCUTS,
  },
  im: {
    description: "Messenger: messages, chats, bookmarks and the feed",
    identities: ["bot", "user"],
    load: async () => (await lazy("shortcuts/im/index.ts")).SHORTCUTS,
  },
  docs: {
    description: "Docs: create, read and edit documents; history, media, search",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/docs/index.ts")).SHORTCUTS,
  },
  drive: {
    description: "Drive: files, folders, comments, permissions, versions, import and export",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/drive/index.ts")).SHORTCUTS,
  },
  sheets: {
    description: "Sheets: read, write and append cell values",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/sheets/index.ts")).SHORTCUTS,
  },
  base: {
    description: "Base: list and upsert table records",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/base/index.ts")).SHORTCUTS,
  },
  task: {
    description: "Tasks: create, list and complete",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/task/index.ts")).SHORTCUTS,
  },
  contact: {
    description: "Contacts: find people and bots, read profiles",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/contact/index.ts")).SHORTCUTS,
  },
  application: {
    description: "Application: the app's slash commands",
    identities: ["bot", "user"],
    load: async () => (await lazy("shortcuts/application/index.ts")).SHORTCUTS,
  },
  note: {
    description: "Meeting notes: details and transcripts",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/note/index.ts")).SHORTCUTS,
  },
  mail: {
    description:
      "Mail: compose (drafts first), reply, forward, triage, organize, receipts, templates and rules",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/mail/index.ts")).SHORTCUTS,
  },
  vc: {
    description: "Video meetings: search, details, recordings, notes and the meeting bot",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/vc/index.ts")).SHORTCUTS,
  },
  minutes: {
    description: "Minutes: search, details, media, and edits to summaries, todos and transcripts",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/minutes/index.ts")).SHORTCUTS,
  },
  okr: {
    description: "OKR: cycles, objectives and key results, weights, indicators, progress records",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/okr/index.ts")).SHORTCUTS,
  },
  wiki: {
    description: "Wiki: spaces, pages, members and moves",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/wiki/index.ts")).SHORTCUTS,
  },
  markdown: {
    description: "Markdown files in Drive: store and fetch them byte for byte",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/markdown/index.ts")).SHORTCUTS,
  },
  whiteboard: {
    description: "Whiteboards: read nodes, export as image, add nodes or diagrams",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/whiteboard/index.ts")).SHORTCUTS,
  },
  slides: {
    description: "Slides: presentations as XML \u2014 create, read, edit slides, versions, images",
    identities: ["user", "bot"],
    load: async () => (await lazy("shortcuts/slides/index.ts")).SHORTCUTS,
  },
  event: {
    description: "event operations",
    identities: ["bot"],
    load: async () => (await lazy("shortcuts/event/index.ts")).SHORTCUTS,
  },
};

/** The shortcuts of one service; none for a service without shortcuts. */
export function loadShortcuts(service: string): Promise<Shortcut<FlagSpecs>[]> {
  return Object.hasOwn(SHORTCUT_SERVICES, service) ? SHORTCUT_SERVICES[service].load() : Promise.resolve([]);
}

/** Every shortcut, service by service in the order above (tests, `schema`'s listing). */
export async function loadAllShortcuts(): Promise<Shortcut<FlagSpecs>[]> {
  return (await Promise.all(Object.values(SHORTCUT_SERVICES).map((s) => s.load()))).flat();
}
