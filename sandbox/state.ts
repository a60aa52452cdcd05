/**
 * What every route sees: the database, the file store, the injected clock, the fixtures' time zone and the seeded app.
 */
import type { DatabaseSync } from "node:sqlite";
import type { FileStore } from "./file_store.ts";

export interface EmulatorClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface SandboxApp {
  appId: string;
  appSecret: string;
  /** The app's bot, which owns the bot's primary calendar and sends bot messages. */
  botOpenId: string;
}

export interface EmulatorState {
  db: DatabaseSync;
  /** The bytes of stored files and upload parts. */
  files: FileStore;
  clock: EmulatorClock;
  timeZone: string;
  app: SandboxApp;
  /** Origin the server listens on, for URLs it hands out (verification page, doc links). */
  origin: string;
  /** The remote registry overlay served at `/api/tools/open/api_definition`; "corrupt" serves broken JSON. */
  overlay: unknown | "corrupt";
  /** The recommended-scopes document served at `/api/tools/open/scopes.json` (a fixture when unset). */
  scopeDocument: unknown | "corrupt";
  /** `sandbox start --lenient-fields`: fields a method does not take are ignored, as the suite does. */
  lenientFields: boolean;
}

export const SANDBOX_APP: SandboxApp = {
  appId: "cli_a0b1c2d3e4f50617",
  appSecret: "sandbox-secret-0001",
  botOpenId: "ou_sandbox_bot_0001",
};
