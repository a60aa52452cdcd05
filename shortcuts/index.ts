/**
 * THE list of services that have shortcuts. Adding a shortcut = one new file under `shortcuts/<service>/` and
 * one line in that service's `shortcuts/<service>/index.ts`; a new service = one entry here. A run loads only
 * the service it builds (start-up), so what help and strict mode need of an unbuilt service (its description and
 * the identities its shortcuts support) is declared here; `shortcuts/index_test.ts` checks it against the
 * shortcuts themselves.
 */
import type { Identity } from "../cli/output/envelope.ts";
import type { FlagSpecs, Shortcut } from "./declare.ts";
import { lazy, type LazyModules } from "../cli/lazy.ts";

export interface ShortcutService {
  /** Help text of the service (the registry's own description wins where it has one). */
  description: string;
  /** Union of its shortcuts' `authTypes`, in the order they first appear. */
  identities: Identity[];
  load(): Promise<Shortcut<FlagSpecs>[]>;
}

/** A service's list module, loaded when a run first builds that service. */
const list = (path: Extract<keyof LazyModules, `shortcuts/${string}/index.ts`>) => async () =>
  (await lazy(path)).SHORTCUTS;

export const SHORTCUT_SERVICES: Record<string, ShortcutService> = {
  calendar: {
    description: "Calendar: agenda, events, free/busy, invitations",
    identities: ["user", "bot"],
    load: list("shortcuts/calendar/index.ts"),
  },
  im: {
    description: "Messenger: messages, chats, bookmarks and the feed",
    identities: ["bot", "user"],
    load: list("shortcuts/im/index.ts"),
  },
  docs: {
    description: "Docs: create, read and edit documents; history, media, search",
    identities: ["user", "bot"],
    load: list("shortcuts/docs/index.ts"),
  },
  drive: {
    description: "Drive: files, folders, comments, permissions, versions, import and export",
    identities: ["user", "bot"],
    load: list("shortcuts/drive/index.ts"),
  },
  sheets: {
    description: "Sheets: read, write and append cell values",
    identities: ["user", "bot"],
    load: list("shortcuts/sheets/index.ts"),
  },
  base: {
    description: "Base: list and upsert table records",
    identities: ["user", "bot"],
    load: list("shortcuts/base/index.ts"),
  },
  task: {
    description: "Tasks: create, list and complete",
    identities: ["user", "bot"],
    load: list("shortcuts/task/index.ts"),
  },
  contact: {
    description: "Contacts: find people and bots, read profiles",
    identities: ["user", "bot"],
    load: list("shortcuts/contact/index.ts"),
  },
  application: {
    description: "Application: the app's slash commands",
    identities: ["bot", "user"],
    load: list("shortcuts/application/index.ts"),
  },
  note: {
    description: "Meeting notes: details and transcripts",
    identities: ["user", "bot"],
    load: list("shortcuts/note/index.ts"),
  },
  mail: {
    description:
      "Mail: compose (drafts first), reply, forward, triage, organize, receipts, templates and rules",
    identities: ["user", "bot"],
    load: list("shortcuts/mail/index.ts"),
  },
  vc: {
    description: "Video meetings: search, details, recordings, notes and the meeting bot",
    identities: ["user", "bot"],
    load: list("shortcuts/vc/index.ts"),
  },
  minutes: {
    description: "Minutes: search, details, media, and edits to summaries, todos and transcripts",
    identities: ["user", "bot"],
    load: list("shortcuts/minutes/index.ts"),
  },
  okr: {
    description: "OKR: cycles, objectives and key results, weights, indicators, progress records",
    identities: ["user", "bot"],
    load: list("shortcuts/okr/index.ts"),
  },
  wiki: {
    description: "Wiki: spaces, pages, members and moves",
    identities: ["user", "bot"],
    load: list("shortcuts/wiki/index.ts"),
  },
  markdown: {
    description: "Markdown files in Drive: store and fetch them byte for byte",
    identities: ["user", "bot"],
    load: list("shortcuts/markdown/index.ts"),
  },
  whiteboard: {
    description: "Whiteboards: read nodes, export as image, add nodes or diagrams",
    identities: ["user", "bot"],
    load: list("shortcuts/whiteboard/index.ts"),
  },
  slides: {
    description: "Slides: presentations as XML \u2014 create, read, edit slides, versions, images",
    identities: ["user", "bot"],
    load: list("shortcuts/slides/index.ts"),
  },
  event: {
    description: "event operations",
    identities: ["bot"],
    load: list("shortcuts/event/index.ts"),
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
