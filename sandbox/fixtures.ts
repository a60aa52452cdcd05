/**
 * Realistic seed data: one tenant with an app and its bot, a handful of people, their calendars with events
 * for TODAY (relative to the injected clock, in the fixtures' zone) including recurring ones, chats with
 * history, a document, a drive file, a spreadsheet, a base (its table, fields, view and records), departments
 * (the root "0" among them), a personal wiki library, tasks and mail. Ids have the suite's prefixes and are
 * fixed, so tests and README examples can name them. The emulator answers only from what is here or was made
 * since: `seedObject`/`seedPath` put an object the tenant already has where the generic handler finds it.
 */
import type { DatabaseSync } from "node:sqlite";
import { nextCounter, one, run, tx } from "./db.ts";
import type { FileStore } from "./file_store.ts";
import { DEFAULT_SCOPES } from "./scopes.ts";
import type { SandboxApp } from "./state.ts";
import { startOfLocalDay } from "./zone.ts";
import { DEFAULT_USER_OPEN_ID } from "./auth.ts";

export const TENANT_KEY = "736588c9260f175d";

export const USERS = {
  alice: {
    open_id: DEFAULT_USER_OPEN_ID,
    name: "Alice Chen",
    en_name: "Alice Chen",
    email: "alice@sandbox.example",
  },
  bob: {
    open_id: "ou_7d8a6e6df7621556ce0d21922b676706",
    name: "Bob Li",
    en_name: "Bob Li",
    email: "bob@sandbox.example",
  },
  carol: {
    open_id: "ou_9b2f3c1d4e5a6b7c8d9e0f1a2b3c4d5e",
    name: "Carol Wang",
    en_name: "Carol Wang",
    email: "carol@sandbox.example",
  },
  dan: {
    open_id: "ou_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
    name: "Dan Zhao",
    en_name: "Dan Zhao",
    email: "dan@sandbox.example",
  },
} as const;

export const CALENDARS = {
  bot: "feishu.cn_b0t5andb0xapp0001@group.calendar.feishu.cn",
  alice: "feishu.cn_a11ce0c8e5e14a7f9a3f@group.calendar.feishu.cn",
  bob: "feishu.cn_b0b7d8a6e6df76215@group.calendar.feishu.cn",
  team: "feishu.cn_7ea3c0ffee5a4db0a7c1@group.calendar.feishu.cn",
} as const;

export const CHATS = {
  engineering: "oc_a0553eda9014c201e6969b478895c230",
  launch: "oc_5ad11d8f1e2a0b4c9e7d6f3a2b1c0d01",
  random: "oc_0e9c7b2d4f6a8c1e3b5d7f9a1c3e5b7d",
} as const;

export const DOCS = { handbook: "doxcnSandboxHandbook0001" } as const;
export const DRIVE = { folder: "fldcnSandboxRoot0001", readme: "boxcnSandboxReadme0001" } as const;
export const SHEETS = { budget: "shtcnSandboxBudget0001", budgetSheet: "0b12cd" } as const;
export const BASE = {
  app: "bascnSandboxTracker0001",
  table: "tblSandboxIssues01",
  view: "vewSandboxGrid",
  fields: { title: "fldSandboxTitle", status: "fldSandboxStatus", priority: "fldSandboxPrio" },
} as const;
export const WIKI = { library: "7034502641455490001" } as const;
export const BIG_DEPARTMENT = { id: "od-sandbox-big-0001", size: 10_500 } as const;
export const DEPARTMENTS = { root: "0", engineering: "od-sandbox-eng-0001" } as const;
/** Where `department.get` (the generic handler) finds departments. */
export const DEPARTMENTS_COLLECTION = "/open-apis/contact/v3/departments";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface EventSeed {
  id: string;
  summary: string;
  description?: string;
  /** Hours after local midnight today (negative days allowed through `day`). */
  day?: number;
  start: number;
  end: number;
  allDay?: boolean;
  recurrence?: string;
  status?: "confirmed" | "cancelled" | "tentative";
  freeBusy?: "busy" | "free";
  location?: string;
  attendees?: string[];
}

const EVENT_SEEDS: EventSeed[] = [
  {
    id: "standup",
    summary: "Daily stand-up",
    description: "What I did, what I will do, what blocks me.",
    day: -14,
    start: 9.5,
    end: 9.75,
    recurrence: "FREQ=DAILY;INTERVAL=1",
    attendees: ["alice", "bob", "carol"],
  },
  {
    id: "one_on_one",
    summary: "1:1 Alice / Bob",
    day: -7,
    start: 16,
    end: 16.5,
    recurrence: "FREQ=WEEKLY;INTERVAL=1",
    attendees: ["alice", "bob"],
  },
  {
    id: "design_review",
    summary: "Design review: larkit agent server",
    description: "Walk through the relay and the JSON-RPC surface.",
    start: 14,
    end: 15,
    location: "Room 3F-Hangzhou",
    attendees: ["alice", "carol", "dan"],
  },
  { id: "offsite", summary: "Team offsite", start: 0, end: 24, allDay: true, freeBusy: "free" },
  { id: "cancelled_sync", summary: "Cancelled sync", start: 11, end: 11.5, status: "cancelled" },
  { id: "planning", summary: "Quarterly planning", day: 1, start: 10, end: 12 },
];

function eventId(owner: string, seed: string): string {
  // The suite's event ids are a uuid followed by `_0`.
  const hex = Array.from(new TextEncoder().encode(`${owner}:${seed}`), (b) => b.toString(16).padStart(2, "0"))
    .join("").padEnd(32, "0").slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20, 32)
  }_0`;
}

export function seedIdOfEvent(owner: keyof typeof CALENDARS, seed: string): string {
  return eventId(owner, seed);
}

export function isSeeded(db: DatabaseSync): boolean {
  return one(db, "SELECT value FROM meta WHERE key = 'seeded'") !== undefined;
}

/** The app and its scopes: present even in an unseeded emulator, since nothing works without them. */
export function seedApp(db: DatabaseSync, app: SandboxApp): void {
  if (one(db, "SELECT app_id FROM apps WHERE app_id = ?", app.appId)) return;
  tx(db, () => {
    run(
      db,
      "INSERT INTO apps (app_id, app_secret, name, bot_open_id) VALUES (?, ?, ?, ?)",
      app.appId,
      app.appSecret,
      "larkit sandbox",
      app.botOpenId,
    );
    for (const kind of ["tenant", "user"] as const) {
      for (const s of DEFAULT_SCOPES[kind]) {
        run(db, "INSERT INTO app_scopes (kind, scope) VALUES (?, ?)", kind, s);
      }
    }
    for (const [i, u] of Object.values(USERS).entries()) {
      run(
        db,
        `INSERT INTO users (open_id, union_id, user_id, name, en_name, email, mobile, department_id, job_title)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        u.open_id,
        `on_${u.open_id.slice(3)}`,
        `sandbox${i + 1}`,
        u.name,
        u.en_name,
        u.email,
        `+86 1380000000${i + 1}`,
        DEPARTMENTS.engineering,
        ["Engineering Manager", "Software Engineer", "Product Designer", "Data Analyst"][i],
      );
    }
  });
}

export function seedFixtures(
  db: DatabaseSync,
  files: FileStore,
  app: SandboxApp,
  now: number,
  zone: string,
): void {
  const today = startOfLocalDay(now, zone);
  tx(db, () => {
    const calendar = (id: string, owner: string, summary: string, primary: boolean, type: string) =>
      run(
        db,
        "INSERT INTO calendars (calendar_id, owner, summary, description, type, is_primary, color) VALUES (?, ?, ?, ?, ?, ?, ?)",
        id,
        owner,
        summary,
        "",
        type,
        primary ? 1 : 0,
        -1,
      );
    calendar(CALENDARS.bot, app.botOpenId, "larkit sandbox", true, "primary");
    calendar(CALENDARS.alice, USERS.alice.open_id, USERS.alice.name, true, "primary");
    calendar(CALENDARS.bob, USERS.bob.open_id, USERS.bob.name, true, "primary");
    calendar(CALENDARS.team, USERS.alice.open_id, "Engineering team", false, "shared");

    for (const owner of ["bot", "alice", "bob"] as const) {
      for (const e of EVENT_SEEDS) {
        const dayStart = today + (e.day ?? 0) * DAY;
        const id = eventId(owner, e.id);
        run(
          db,
          `INSERT INTO events (event_id, calendar_id, summary, description, start_ts, end_ts, all_day, timezone,
             recurrence, status, visibility, free_busy_status, location, organizer, create_time)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'default', ?, ?, ?, ?)`,
          id,
          CALENDARS[owner],
          e.summary,
          e.description ?? "",
          Math.round(dayStart + e.start * HOUR),
          Math.round(dayStart + e.end * HOUR),
          e.allDay ? 1 : 0,
          zone,
          e.recurrence ?? "",
          e.status ?? "confirmed",
          e.freeBusy ?? "busy",
          e.location ?? null,
          owner === "bot" ? app.botOpenId : USERS[owner].open_id,
          now - 30 * DAY,
        );
        for (const a of e.attendees ?? []) {
          const u = USERS[a as keyof typeof USERS];
          run(
            db,
            "INSERT INTO attendees (event_id, attendee_id, type, open_id, display_name, rsvp_status) VALUES (?, ?, 'user', ?, ?, ?)",
            id,
            `user_${u.open_id.slice(3)}`,
            u.open_id,
            u.name,
            a === "alice" ? "accept" : "needs_action",
          );
        }
      }
    }

    const chat = (id: string, name: string, description: string, members: string[]) => {
      run(
        db,
        "INSERT INTO chats (chat_id, name, description, owner_id, chat_mode, external) VALUES (?, ?, ?, ?, 'group', 0)",
        id,
        name,
        description,
        USERS.alice.open_id,
      );
      for (const m of [...members, app.botOpenId]) {
        run(db, "INSERT INTO chat_members (chat_id, member_id) VALUES (?, ?)", id, m);
      }
    };
    const everyone = Object.values(USERS).map((u) => u.open_id);
    chat(CHATS.engineering, "Sandbox Engineering", "Where the builders talk", everyone);
    chat(CHATS.launch, "Product Launch 2026", "Launch coordination", [
      USERS.alice.open_id,
      USERS.carol.open_id,
    ]);
    chat(CHATS.random, "Random", "Anything goes", everyone);
    const history: [string, string, string][] = [
      [USERS.alice.open_id, CHATS.engineering, "Good morning! Stand-up in 10 minutes."],
      [USERS.bob.open_id, CHATS.engineering, "The emulator build is green."],
      [USERS.carol.open_id, CHATS.engineering, "Design review moved to 14:00."],
      [USERS.alice.open_id, CHATS.launch, "Launch checklist is in the handbook."],
    ];
    history.forEach(([sender, chatId, text], i) =>
      run(
        db,
        `INSERT INTO messages (message_id, chat_id, msg_type, content, sender_id, sender_type, create_time)
         VALUES (?, ?, 'text', ?, ?, 'user', ?)`,
        `om_${(0xdc13264520392913n + BigInt(i)).toString(16)}993dfd30b0a6f1ac`,
        chatId,
        JSON.stringify({ text }),
        sender,
        today + 9 * HOUR + i * 60_000,
      )
    );

    seedDoc(
      db,
      DOCS.handbook,
      "Team handbook",
      "# Team handbook\n\n## Launch checklist\n\n- Freeze scope\n- Write release notes\n\n## On-call\n\nRotate weekly.\n",
      now - 10 * DAY,
    );
    const readme = new TextEncoder().encode("Welcome to the larkit sandbox drive.\n");
    files.put(DRIVE.readme, readme);
    run(
      db,
      "INSERT INTO blobs (key, kind, name, file_type, size, owner, parent, create_time) VALUES (?, 'drive', ?, 'file', ?, ?, ?, ?)",
      DRIVE.readme,
      "README.txt",
      readme.length,
      USERS.alice.open_id,
      DRIVE.folder,
      now - 5 * DAY,
    );

    // What `GET /sheets/v3/spreadsheets/{token}` answers (the generic handler), as for a created one.
    seedObject(db, "/open-apis/sheets/v3/spreadsheets", SHEETS.budget, {
      spreadsheet_token: SHEETS.budget,
      token: SHEETS.budget,
      title: "Team budget",
      owner_id: USERS.alice.open_id,
      folder_token: DRIVE.folder,
    });
    run(
      db,
      "INSERT INTO sheet_tabs (spreadsheet_token, sheet_id, title, idx) VALUES (?, ?, 'Budget', 0)",
      SHEETS.budget,
      SHEETS.budgetSheet,
    );
    const budget = [["Item", "Q1", "Q2"], ["Cloud", 1200, 1350], ["Laptops", 4000, 0], ["Travel", 800, 950]];
    budget.forEach((row, r) =>
      row.forEach((v, c) =>
        run(
          db,
          "INSERT INTO sheet_cells (spreadsheet_token, sheet_id, row, col, value) VALUES (?, ?, ?, ?, ?)",
          SHEETS.budget,
          SHEETS.budgetSheet,
          r,
          c,
          JSON.stringify(v),
        )
      )
    );

    const departments: [string, string, string, number][] = [
      [DEPARTMENTS.root, "larkit sandbox", "", 0],
      [DEPARTMENTS.engineering, "Engineering", DEPARTMENTS.root, Object.keys(USERS).length],
      [BIG_DEPARTMENT.id, "Operations", DEPARTMENTS.root, BIG_DEPARTMENT.size],
    ];
    for (const [id, name, parent, members] of departments) {
      seedObject(db, DEPARTMENTS_COLLECTION, id, {
        department_id: id,
        open_department_id: id,
        name,
        ...(id === DEPARTMENTS.root ? {} : { parent_department_id: parent }),
        member_count: members,
        status: { is_deleted: false },
      });
    }

    const apps = `/open-apis/bitable/v1/apps`;
    seedObject(db, apps, BASE.app, { app_token: BASE.app, name: "Issue tracker", revision: 1 });
    seedObject(db, `${apps}/${BASE.app}/tables`, BASE.table, {
      table_id: BASE.table,
      name: "Issues",
      revision: 1,
      default_view_id: BASE.view,
    });
    const table = `${apps}/${BASE.app}/tables/${BASE.table}`;
    const select = (...names: string[]) => ({ options: names.map((name) => ({ name })) });
    const fields: [string, string, number, Record<string, unknown>?][] = [
      [BASE.fields.title, "Title", 1],
      [BASE.fields.status, "Status", 3, select("Open", "In progress", "Done")],
      [BASE.fields.priority, "Priority", 3, select("P1", "P2", "P3")],
    ];
    for (const [field_id, field_name, type, property] of fields) {
      seedObject(db, `${table}/fields`, field_id, {
        field_id,
        field_name,
        type,
        is_primary: field_id === BASE.fields.title,
        ...(property ? { property } : {}),
      });
    }
    seedObject(db, `${table}/views`, BASE.view, { view_id: BASE.view, view_name: "Grid", view_type: "grid" });

    seedObject(db, "/open-apis/wiki/v2/spaces", WIKI.library, {
      space_id: WIKI.library,
      name: "My library",
      space_type: "my_library",
      visibility: "private",
    });

    const issues = [
      { Title: "Login page flickers", Status: "Open", Priority: "P1" },
      { Title: "Export to CSV", Status: "In progress", Priority: "P2" },
      { Title: "Dark mode", Status: "Done", Priority: "P3" },
    ];
    issues.forEach((fields, i) =>
      run(
        db,
        "INSERT INTO records (app_token, table_id, record_id, fields, seq) VALUES (?, ?, ?, ?, ?)",
        BASE.app,
        BASE.table,
        `recSandbox${String(i + 1).padStart(4, "0")}`,
        JSON.stringify(fields),
        i + 1,
      )
    );

    const tasks = [
      {
        guid: "6f1b2c3d-0001-4e5f-8a9b-0c1d2e3f4a5b",
        summary: "Review the emulator PR",
        due: today + 17 * HOUR,
      },
      {
        guid: "6f1b2c3d-0002-4e5f-8a9b-0c1d2e3f4a5b",
        summary: "Book the offsite venue",
        due: today + 3 * DAY,
      },
    ];
    for (const t of tasks) {
      run(
        db,
        `INSERT INTO tasks (guid, summary, description, due_ts, completed_at, creator, assignee, create_time, update_time)
         VALUES (?, ?, '', ?, 0, ?, ?, ?, ?)`,
        t.guid,
        t.summary,
        t.due,
        USERS.alice.open_id,
        USERS.alice.open_id,
        now - DAY,
        now - DAY,
      );
    }

    run(
      db,
      `INSERT INTO mails (message_id, mailbox, folder, subject, head_from, recipients, body_plain, body_html, raw,
         attachments, create_time) VALUES (?, ?, 'INBOX', ?, ?, ?, ?, ?, NULL, '[]', ?)`,
      "mail_sandbox_0001",
      USERS.alice.email,
      "Welcome to the sandbox",
      JSON.stringify({ name: "Bob Li", mail_address: USERS.bob.email }),
      JSON.stringify({ to: [{ mail_address: USERS.alice.email }], cc: [], bcc: [] }),
      "Hi Alice, the sandbox mailbox works.",
      "<p>Hi Alice, the sandbox mailbox works.</p>",
      today + 8 * HOUR,
    );
    run(db, "INSERT INTO meta (key, value) VALUES ('seeded', ?)", String(now));
  });
}

/**
 * An object the tenant already has, in the generic handler's store (`generic.ts`): `collection` is the list's
 * path (`/open-apis/.../tables`), `id` the item's path parameter value. Tests seed what they read the same way.
 */
export function seedObject(
  db: DatabaseSync,
  collection: string,
  id: string,
  body: Record<string, unknown>,
): void {
  run(
    db,
    `INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, ?)
     ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body, deleted = 0`,
    collection,
    id,
    JSON.stringify(body),
    nextCounter(db, "generic_seq"),
  );
}

/** `seedObject` by the object's full path (`/open-apis/.../comments/{comment_id}`). */
export function seedPath(db: DatabaseSync, path: string, body: Record<string, unknown> = {}): void {
  const i = path.lastIndexOf("/");
  seedObject(db, path.slice(0, i), path.slice(i + 1), body);
}

/** A document (docx) the tenant has, owned by Alice, in the sandbox's root folder. */
export function seedDoc(
  db: DatabaseSync,
  id: string,
  title: string,
  markdown: string,
  createTime: number,
): void {
  run(
    db,
    "INSERT INTO docs (document_id, title, markdown, folder_token, revision, owner, create_time) VALUES (?, ?, ?, ?, 1, ?, ?)",
    id,
    title,
    markdown,
    DRIVE.folder,
    USERS.alice.open_id,
    createTime,
  );
}

/** A singleton the tenant already has (`GET .../announcement`, a note's transcript), by its path. */
export function seedSingleton(db: DatabaseSync, path: string, body: Record<string, unknown>): void {
  seedObject(db, `singleton:${path}`, "", body);
}
