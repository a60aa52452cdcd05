/**
 * `larkit sandbox`: the suite emulator as a command. `serve` keeps one listening on loopback and prints where;
 * `run -- <larkit argv>` starts a private one, points a single larkit run at it as the seeded app (custom
 * brand, a throw-away config dir) and stops it -- the no-account, no-network path the README's main job uses.
 */
import { join } from "node:path";
import * as z from "zod";
import { flag } from "../../shortcuts/declare.ts";
import { sandboxEnv } from "../../sandbox/larkit_env.ts";
import type { Emulator } from "../../sandbox/server.ts";
import { refusedInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { successEnvelope } from "../output/envelope.ts";
import { emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { type Provider, resolvePaths, untilAborted, withIOFrom } from "../provider.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";

const ServeFlags = z.object({
  port: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 0),
  data: z.optional(z.string().check(z.minLength(1))),
  seed: z._default(z.boolean(), true),
  timeZone: z.optional(z.string()),
  exitWithStdin: z._default(z.boolean(), false),
  login: z.optional(z.literal("user")),
  as: z.optional(z.enum(["user", "bot"])),
  printEnv: z._default(z.boolean(), false),
  lenientFields: z._default(z.boolean(), false),
});

function parseFlags(raw: unknown): z.infer<typeof ServeFlags> {
  const parsed = ServeFlags.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.validation(`invalid --${String(issue.path[0] ?? "flag")}: ${issue.message}`, {
      hint:
        "larkit sandbox serve --port 0..65535 [--data DIR] [--login user]; larkit sandbox run [--as user] -- <command>",
    });
  }
  return parsed.data;
}

/** Fixtures' "today" follows the zone larkit itself will compute "today" in. */
function zoneOf(p: Provider, flag?: string): string {
  return flag ?? p.env.get("TZ") ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

async function start(p: Provider, flags: z.infer<typeof ServeFlags>): Promise<Emulator> {
  // Loaded only when a sandbox command runs: the emulator is a quarter of larkit's start-up otherwise.
  const { startEmulator } = await import("../../sandbox/server.ts");
  try {
    return await startEmulator({
      port: flags.port,
      dataDir: flags.data,
      seed: flags.seed,
      clock: { now: () => p.clock.now() },
      timeZone: zoneOf(p, flags.timeZone),
      lenientFields: flags.lenientFields,
    });
  } catch (e) {
    throw errors.config(`the sandbox could not start: ${e instanceof Error ? e.message : String(e)}`, {
      hint: flags.port ? `is port ${flags.port} free? use --port 0 for any free port` : undefined,
    });
  }
}

/** Every user scope the shortcuts declare: what a sandbox user is granted, so no shortcut misses one. */
async function shortcutUserScopes(): Promise<string[]> {
  const { SHORTCUT_SERVICES } = await import("../../shortcuts/index.ts");
  const scopes = new Set<string>();
  for (const service of Object.values(SHORTCUT_SERVICES)) {
    for (const shortcut of await service.load()) for (const s of shortcut.scopes.user ?? []) scopes.add(s);
  }
  return [...scopes].sort();
}

const DeviceAuthorization = z.object({ device_code: z.string().check(z.minLength(1)) });
const UserGrant = z.object({ access_token: z.string().check(z.minLength(1)), scope: z.string() });

/**
 * Logs the seeded default user in through the emulator's own device flow (the emulator approves it at once):
 * the app is granted every scope the shortcuts declare, the user grants them all, and the user access token
 * comes back for LARKIT_USER_ACCESS_TOKEN (valid two hours; not refreshed, as env tokens never are).
 */
export async function loginUser(p: Provider, emu: Emulator): Promise<{ token: string; scopes: string[] }> {
  const scopes = await shortcutUserScopes();
  emu.grantScopes("user", scopes);
  const post = async (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await p.fetch(`${emu.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    });
    if (!res.ok) {
      throw errors.internal(`sandbox login: ${path} answered HTTP ${res.status}: ${await res.text()}`);
    }
    return await res.json();
  };
  const basic = new TextEncoder().encode(`${emu.app.appId}:${emu.app.appSecret}`).toBase64();
  const device = DeviceAuthorization.parse(
    await post("/oauth/v1/device_authorization", { client_id: emu.app.appId, scope: scopes.join(" ") }, {
      authorization: `Basic ${basic}`,
    }),
  );
  emu.approveDevice(device.device_code);
  const grant = UserGrant.parse(
    await post("/open-apis/authen/v2/oauth/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: device.device_code,
      client_id: emu.app.appId,
      client_secret: emu.app.appSecret,
    }),
  );
  return { token: grant.access_token, scopes: grant.scope.split(" ").filter(Boolean) };
}

/** The env of a sandbox run or `serve`, with the logged-in user when one was asked for. */
async function envFor(p: Provider, emu: Emulator, user: boolean): Promise<Record<string, string>> {
  if (!user) return sandboxEnv(emu);
  const { token } = await loginUser(p, emu);
  return { ...sandboxEnv(emu), LARKIT_USER_ACCESS_TOKEN: token, LARKIT_DEFAULT_AS: "user" };
}

/** `export K='v'` lines for `eval "$(larkit sandbox serve --print-env ...)"`, single-quoted for any shell. */
function exportLines(env: Record<string, string>): string {
  return Object.entries(env).map(([k, v]) => `export ${k}='${v.replaceAll("'", `'\\''`)}'`).join("\n");
}

async function serve(ctx: RunContext, flags: z.infer<typeof ServeFlags>): Promise<void> {
  const emu = await start(ctx.p, flags);
  try {
    const env = await envFor(ctx.p, emu, flags.login === "user");
    if (flags.printEnv) {
      // Shell lines, ended by a comment line so a script reading them knows the emulator is listening.
      await emitText(ctx, `${exportLines(env)}\n# larkit sandbox listening on ${emu.url}`);
    } else {
      const ready = successEnvelope({
        data: {
          url: emu.url,
          app_id: emu.app.appId,
          app_secret: emu.app.appSecret,
          brand: "custom",
          data_dir: flags.data ?? null,
          env,
          verification_page: `${emu.url}/emulator/verify`,
        },
      });
      // One line, so a script can `read` it and know the emulator is listening.
      await emitText(ctx, JSON.stringify(ready));
    }
    await ctx.diag.info(
      `sandbox listening on ${emu.url} (emulator only, not the real suite); Ctrl-C stops it`,
    );
    const stops = [untilAborted(ctx.p.signal)];
    if (flags.exitWithStdin) stops.push(ctx.p.stdin.readAll().then(() => {}));
    await Promise.race(stops);
  } finally {
    await emu.stop();
  }
}

async function runInside(ctx: RunContext, argv: string[], flags: z.infer<typeof ServeFlags>): Promise<void> {
  if (argv.length === 0) {
    throw errors.usage("sandbox run needs a larkit command after --", {
      hint: "larkit sandbox run -- calendar +agenda --as bot",
    });
  }
  const emu = await start(ctx.p, { ...flags, data: undefined, seed: true });
  const home = join(ctx.p.paths.cacheDir, "sandbox-run", ctx.p.random.uuid());
  try {
    const overrides: Record<string, string | undefined> = {
      LARKIT_USER_ACCESS_TOKEN: undefined,
      LARKIT_TENANT_ACCESS_TOKEN: undefined,
      LARKIT_DEFAULT_AS: undefined,
      ...await envFor(ctx.p, emu, flags.as === "user"),
      ...(flags.as === "bot" ? { LARKIT_DEFAULT_AS: "bot" } : {}),
      LARKIT_CONFIG_DIR: home,
      LARKIT_CACHE_DIR: join(home, "cache"),
      LARKIT_STATE_DIR: join(home, "state"),
      LARKIT_REMOTE_META: "off",
      LARKIT_PROFILE: undefined,
    };
    const inner = { get: (name: string) => name in overrides ? overrides[name] : ctx.p.env.get(name) };
    const { withIO: _drop, ...edges } = ctx.p;
    const child = withIOFrom({ ...edges, env: inner, paths: resolvePaths(inner, home) });
    ctx.state.exitCode = await ctx.hooks.run(argv, child);
  } finally {
    await emu.stop();
    await ctx.p.files.remove(home).catch(() => {});
  }
}

const COMMON = {
  "time-zone": flag.string("zone the fixtures' 'today' is seeded in (default: TZ or the system's)", {
    placeholder: "zone",
  }),
  seed: flag.negatable("start empty: only the app and its users, no calendars, chats or documents"),
  "lenient-fields": flag.boolean(
    "ignore request fields a method does not take, as the suite does (default: refuse them, 99992402)",
  ),
};

/** The declared values under the names `ServeFlags` checks (the port's range, its number). */
function serveFlagsOf(flags: Record<string, unknown>): z.infer<typeof ServeFlags> {
  return parseFlags({
    port: flags.port,
    data: flags.data,
    seed: flags.seed,
    timeZone: flags["time-zone"],
    exitWithStdin: flags["exit-with-stdin"],
    login: flags.login,
    as: flags.as,
    printEnv: flags["print-env"],
    lenientFields: flags["lenient-fields"],
  });
}

const serveCmd = defineCommand({
  words: ["sandbox", "serve"],
  description:
    "serve the emulator until Ctrl-C; prints {ok, data:{url, app_id, app_secret, env}} as one line",
  flags: {
    port: flag.defaulted("port to listen on (0 = any free port)", "0", { placeholder: "n" }),
    login: flag.optionalChoice(
      ["user"],
      "log the seeded user in (every scope the shortcuts declare); env gets its token",
      { placeholder: "identity" },
    ),
    "print-env": flag.boolean(
      'print `export` lines for a shell to source, then a "# larkit sandbox listening" line (instead of JSON)',
    ),
    data: flag.string("keep state in <dir>/sandbox.db instead of memory", { placeholder: "dir" }),
    "exit-with-stdin": flag.boolean(
      "also stop when stdin closes (for a parent process that owns the emulator)",
    ),
    ...COMMON,
  },
  turn: refusedInTurns("starts a listener on this machine"),
  async action(ctx, { flags }) {
    await serve(ctx, serveFlagsOf(flags));
  },
});

const runCmd = defineCommand({
  words: ["sandbox", "run"],
  description:
    "run one larkit command against a fresh emulator as the seeded app: larkit sandbox run -- <command>",
  flags: {
    as: flag.optionalChoice(
      ["user", "bot"],
      "user: the seeded user, logged in with every scope the shortcuts declare; bot: the seeded app",
      { placeholder: "identity" },
    ),
    ...COMMON,
  },
  args: [{ name: "argv", description: "the larkit command to run, after --", variadic: true }],
  passUnknownOptions: true,
  turn: refusedInTurns("runs another program on this machine"),
  async action(ctx, { flags, args }) {
    await runInside(ctx, args, serveFlagsOf(flags));
  },
});

export const sandboxCommands: CommandModule = {
  groups: [{
    words: ["sandbox"],
    description:
      "the suite emulator on 127.0.0.1: no account, no network (emulator only, not the real suite)",
  }],
  commands: [serveCmd, runCmd],
};
