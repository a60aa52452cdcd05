/**
 * The one table of lazily loaded modules, and the one way to load them (issue 35). A module only some runs
 * need (a renderer, `--jq`, the pipeline, a fixed command, a service's shortcuts, the credential chain, ...) is
 * loaded with `lazy("<path from the repository root>")`: through a specifier Deno cannot resolve ahead of time,
 * so it stays out of every run's start-up graph (a literal specifier, even in a dynamic import, is
 * loaded up front). The table types each entry, so a call is checked like a static import; only type imports
 * sit here, so this module loads nothing. `deno task gen` writes `deno task compile`'s `--include`s from this
 * table and `LAZY_DATA` (never by hand), and `tests/compile_includes_test.ts` fails when a lazily loaded module
 * is not included.
 */
import type * as Call from "./api_commands/call.ts";
import type * as MethodHelp from "./api_commands/method_help.ts";
import type * as ParamValues from "./api_commands/param_values.ts";
import type * as Execute from "./api_commands/execute.ts";
import type * as Broker from "./auth/broker.ts";
import type * as Chain from "./auth/chain.ts";
import type * as ConfigProvider from "./auth/config_provider.ts";
import type * as ExtensionProvider from "./auth/extension_provider.ts";
import type * as Scopes from "./auth/scopes.ts";
import type * as TenantToken from "./auth/tenant_token.ts";
import type * as UserToken from "./auth/user_token.ts";
import type * as Api from "./commands/api.ts";
import type * as AppServer from "./commands/app_server.ts";
import type * as Auth from "./commands/auth.ts";
import type * as AuthServe from "./commands/auth_serve.ts";
import type * as Catalogue from "./commands/catalogue.ts";
import type * as Completion from "./commands/completion.ts";
import type * as Config from "./commands/config.ts";
import type * as Doctor from "./commands/doctor.ts";
import type * as EventCommands from "./commands/event.ts";
import type * as Profile from "./commands/profile.ts";
import type * as Registry from "./commands/registry.ts";
import type * as RelayDev from "./commands/relay_dev.ts";
import type * as RemoteControl from "./commands/remote_control.ts";
import type * as Sandbox from "./commands/sandbox.ts";
import type * as Schema from "./commands/schema.ts";
import type * as SchemaCalls from "./commands/schema_calls.ts";
import type * as Skills from "./commands/skills.ts";
import type * as ConfigFile from "./config/config_file.ts";
import type * as Keychain from "./config/keychain.ts";
import type * as SecretStoreModule from "./config/secret_store.ts";
import type * as Client from "./http/client.ts";
import type * as Mcp from "./http/mcp.ts";
import type * as Pagination from "./http/pagination.ts";
import type * as LocalPaths from "./local_paths.ts";
import type * as DryRun from "./output/dry_run.ts";
import type * as Jq from "./output/formats/jq.ts";
import type * as Render from "./output/formats/render.ts";
import type * as Rows from "./output/formats/rows.ts";
import type * as Width from "./output/formats/width.ts";
import type * as RecordSession from "./record/session.ts";
import type * as ResolveDeclare from "./resolve/declare.ts";
import type * as HelpFormat from "./resolve/help_format.ts";
import type * as ResolveRun from "./resolve/run.ts";
import type * as Services from "./resolve/services.ts";
import type * as Strict from "./resolve/strict.ts";
import type * as ShortcutNodes from "./resolve/shortcut_nodes.ts";
import type * as RiskGate from "./risk.ts";
import type * as TerminalPicker from "./terminal_picker.ts";
import type * as Describe from "../registry/describe.ts";
import type * as Overlay from "../registry/overlay.ts";
import type * as OverlayScopes from "../registry/overlay_scopes.ts";
import type * as Schemas from "../registry/schema.ts";
import type * as Shapes from "../registry/shapes.ts";
import type * as WsSocket from "../relay/ws_socket.ts";
import type * as ApplicationShortcuts from "../shortcuts/application/index.ts";
import type * as BaseShortcuts from "../shortcuts/base/index.ts";
import type * as CalendarShortcuts from "../shortcuts/calendar/index.ts";
import type * as ContactShortcuts from "../shortcuts/contact/index.ts";
import type * as DocsShortcuts from "../shortcuts/docs/index.ts";
import type * as DriveShortcuts from "../shortcuts/drive/index.ts";
import type * as EventShortcuts from "../shortcuts/event/index.ts";
import type * as ImShortcuts from "../shortcuts/im/index.ts";
import type * as MailShortcuts from "../shortcuts/mail/index.ts";
import type * as Mime from "../shortcuts/mail/mime.ts";
import type * as MarkdownShortcuts from "../shortcuts/markdown/index.ts";
import type * as MinutesShortcuts from "../shortcuts/minutes/index.ts";
import type * as NoteShortcuts from "../shortcuts/note/index.ts";
import type * as OkrShortcuts from "../shortcuts/okr/index.ts";
import type * as ShortcutInputs from "../shortcuts/inputs.ts";
import type * as Pipeline from "../shortcuts/pipeline.ts";
import type * as SheetsShortcuts from "../shortcuts/sheets/index.ts";
import type * as SlidesShortcuts from "../shortcuts/slides/index.ts";
import type * as TaskShortcuts from "../shortcuts/task/index.ts";
import type * as VcShortcuts from "../shortcuts/vc/index.ts";
import type * as WhiteboardShortcuts from "../shortcuts/whiteboard/index.ts";
import type * as WikiShortcuts from "../shortcuts/wiki/index.ts";

/** Every lazily loaded module, by its path from the repository root. */
export interface LazyModules {
  "cli/api_commands/call.ts": typeof Call;
  "cli/api_commands/execute.ts": typeof Execute;
  "cli/api_commands/method_help.ts": typeof MethodHelp;
  "cli/api_commands/param_values.ts": typeof ParamValues;
  "cli/auth/broker.ts": typeof Broker;
  "cli/auth/chain.ts": typeof Chain;
  "cli/auth/config_provider.ts": typeof ConfigProvider;
  "cli/auth/extension_provider.ts": typeof ExtensionProvider;
  "cli/auth/scopes.ts": typeof Scopes;
  "cli/auth/tenant_token.ts": typeof TenantToken;
  "cli/auth/user_token.ts": typeof UserToken;
  "cli/commands/api.ts": typeof Api;
  "cli/commands/app_server.ts": typeof AppServer;
  "cli/commands/auth.ts": typeof Auth;
  "cli/commands/auth_serve.ts": typeof AuthServe;
  "cli/commands/catalogue.ts": typeof Catalogue;
  "cli/commands/completion.ts": typeof Completion;
  "cli/commands/config.ts": typeof Config;
  "cli/commands/doctor.ts": typeof Doctor;
  "cli/commands/event.ts": typeof EventCommands;
  "cli/commands/profile.ts": typeof Profile;
  "cli/commands/registry.ts": typeof Registry;
  "cli/commands/relay_dev.ts": typeof RelayDev;
  "cli/commands/remote_control.ts": typeof RemoteControl;
  "cli/commands/sandbox.ts": typeof Sandbox;
  "cli/commands/schema.ts": typeof Schema;
  "cli/commands/schema_calls.ts": typeof SchemaCalls;
  "cli/commands/skills.ts": typeof Skills;
  "cli/config/config_file.ts": typeof ConfigFile;
  "cli/config/keychain.ts": typeof Keychain;
  "cli/config/secret_store.ts": typeof SecretStoreModule;
  "cli/http/client.ts": typeof Client;
  "cli/http/mcp.ts": typeof Mcp;
  "cli/http/pagination.ts": typeof Pagination;
  "cli/local_paths.ts": typeof LocalPaths;
  "cli/output/dry_run.ts": typeof DryRun;
  "cli/output/formats/jq.ts": typeof Jq;
  "cli/output/formats/render.ts": typeof Render;
  "cli/output/formats/rows.ts": typeof Rows;
  "cli/output/formats/width.ts": typeof Width;
  "cli/record/session.ts": typeof RecordSession;
  "cli/resolve/declare.ts": typeof ResolveDeclare;
  "cli/resolve/help_format.ts": typeof HelpFormat;
  "cli/resolve/run.ts": typeof ResolveRun;
  "cli/resolve/services.ts": typeof Services;
  "cli/resolve/strict.ts": typeof Strict;
  "cli/resolve/shortcut_nodes.ts": typeof ShortcutNodes;
  "cli/risk.ts": typeof RiskGate;
  "cli/terminal_picker.ts": typeof TerminalPicker;
  "registry/describe.ts": typeof Describe;
  "registry/overlay.ts": typeof Overlay;
  "registry/overlay_scopes.ts": typeof OverlayScopes;
  "registry/schema.ts": typeof Schemas;
  "registry/shapes.ts": typeof Shapes;
  "relay/ws_socket.ts": typeof WsSocket;
  "shortcuts/application/index.ts": typeof ApplicationShortcuts;
  "shortcuts/base/index.ts": typeof BaseShortcuts;
  "shortcuts/calendar/index.ts": typeof CalendarShortcuts;
  "shortcuts/contact/index.ts": typeof ContactShortcuts;
  "shortcuts/docs/index.ts": typeof DocsShortcuts;
  "shortcuts/drive/index.ts": typeof DriveShortcuts;
  "shortcuts/event/index.ts": typeof EventShortcuts;
  "shortcuts/im/index.ts": typeof ImShortcuts;
  "shortcuts/mail/index.ts": typeof MailShortcuts;
  "shortcuts/mail/mime.ts": typeof Mime;
  "shortcuts/markdown/index.ts": typeof MarkdownShortcuts;
  "shortcuts/minutes/index.ts": typeof MinutesShortcuts;
  "shortcuts/note/index.ts": typeof NoteShortcuts;
  "shortcuts/okr/index.ts": typeof OkrShortcuts;
  "shortcuts/inputs.ts": typeof ShortcutInputs;
  "shortcuts/pipeline.ts": typeof Pipeline;
  "shortcuts/sheets/index.ts": typeof SheetsShortcuts;
  "shortcuts/slides/index.ts": typeof SlidesShortcuts;
  "shortcuts/task/index.ts": typeof TaskShortcuts;
  "shortcuts/vc/index.ts": typeof VcShortcuts;
  "shortcuts/whiteboard/index.ts": typeof WhiteboardShortcuts;
  "shortcuts/wiki/index.ts": typeof WikiShortcuts;
}

/**
 * What runs read or load by a path computed from data, compiled in beside the table: the registry's JSON (read
 * per service), the manifest `deno task gen` writes, the jq worker (started by URL), the emulator's handler.
 */
export const LAZY_DATA = [
  "registry/shapes/",
  "registry/baseline/services/",
  "registry/baseline/runnable/",
  "cli/resolve/catalogue_static.ndjson",
  "cli/resolve/help_static.ndjson",
  "shortcuts/modules.json",
  "cli/output/formats/jq_worker.ts",
  // The emulator's generic handler: the sandbox room loads it by a computed specifier of its own (it imports
  // nothing of the CLI's).
  "sandbox/generic.ts",
];

const ROOT = new URL("../", import.meta.url);

/** The module at `path` (a key of the table), loaded on first call. */
export const lazy = <P extends keyof LazyModules>(path: P): Promise<LazyModules[P]> =>
  import(new URL(path, ROOT).href);

/**
 * A module named by data rather than by the table: a shortcut's, from `shortcuts/modules.json`. Each such
 * module is in the static graph of a table entry (its service's `index.ts`), so the compiled binary holds it.
 */
export const lazyNamed = (path: string): Promise<Record<string, unknown>> => import(new URL(path, ROOT).href);
