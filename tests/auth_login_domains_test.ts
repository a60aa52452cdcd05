/**
 * Logins a person can do and an agent can drive (issue 36): `--domain` asks for exactly the user scopes the
 * service's shortcuts declare, `--exclude` drops some, an unknown domain or no flag at all is a `validation`
 * error naming the flags, and what a login prints for an agent stays under 1 KB unless `--json` asks for
 * every list.
 */
import assert from "node:assert/strict";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { type Emulator, manualClock, startEmulator } from "./helpers/emulator.ts";
import { errorOf, fakeTime, runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";

const AUTHORIZE = "/oauth/v1/device_authorization";

async function declared(service: string): Promise<string[]> {
  const scopes = new Set<string>();
  for (const s of await SHORTCUT_SERVICES[service].load()) for (const x of s.scopes.user ?? []) scopes.add(x);
  return [...scopes].sort();
}

async function withApp(
  fn: (larkit: (args: string[], o?: RunOptions) => Promise<RunResult>, emu: Emulator) => Promise<void>,
) {
  const clock = manualClock(Date.now());
  const emu = await startEmulator({ clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-domains-" });
  const larkit = (args: string[], o: RunOptions = {}) =>
    runCli(args, { configDir: dir, ...fakeTime(clock), ...o });
  try {
    const init = await larkit(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    await fn(larkit, emu);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

const asked = (emu: Emulator) => {
  const all = emu.requests().filter((r) => r.path === AUTHORIZE);
  return String((all.at(-1)?.body as { scope: string }).scope).split(" ").filter((s) =>
    s !== "offline_access"
  )
    .sort();
};

Deno.test("--domain grants exactly the scopes its shortcuts declare; --exclude drops some", async () => {
  await withApp(async (larkit, emu) => {
    const calendar = await declared("calendar");
    assert.ok(calendar.length > 3);
    const started = await larkit(["auth", "login", "--domain", "calendar", "--no-wait"]);
    assert.equal(started.code, 0, started.stderr);
    assert.deepEqual(asked(emu), calendar);
    const code = started.json<{ data: { device_code: string } }>().data.device_code;
    emu.approveDevice(code);
    const done = await larkit(["auth", "login", "--device-code", code]);
    assert.equal(done.code, 0, done.stderr);
    const status = (await larkit(["auth", "status", "--scopes"])).json<
      { data: { users: { scopes: string[] }[] } }
    >().data;
    assert.deepEqual(status.users[0].scopes.filter((s) => s !== "offline_access").sort(), calendar);

    const both = [...new Set([...calendar, ...await declared("im")])].sort();
    const dropped = calendar[0];
    const again = await larkit([
      "auth",
      "login",
      "--domain",
      "calendar,im",
      "--exclude",
      dropped,
      "--no-wait",
      "--user",
      "Nobody",
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(asked(emu), both.filter((s) => s !== dropped));
  });
});

Deno.test("an unknown domain, no flag off a terminal, everything excluded: validation errors naming the flags", async () => {
  await withApp(async (larkit) => {
    const typo = errorOf(await larkit(["auth", "login", "--domain", "calendr"]));
    assert.equal(typo.type, "validation");
    assert.equal(typo.message, 'unknown domain "calendr", did you mean "calendar"?');
    assert.match(String(typo.hint), /available domains: .*calendar.*, or all/);

    const bare = await larkit(["auth", "login"]);
    assert.equal(bare.code, 2);
    const err = errorOf(bare);
    assert.equal(err.type, "validation");
    for (const flag of ["--domain", "--recommend", "--scope", "--exclude"]) {
      assert.ok(err.hint?.includes(flag), flag);
    }

    const calendar = await declared("calendar");
    const none = errorOf(
      await larkit(["auth", "login", "--domain", "calendar", "--exclude", calendar.join(",")]),
    );
    assert.match(none.message, /no matching scopes/);
  });
});

Deno.test("login output for an agent stays under 1 KB by default; --json lists every scope, [] when empty", async () => {
  await withApp(async (larkit, emu) => {
    const started = await larkit(["auth", "login", "--domain", "all", "--no-wait"]);
    assert.equal(started.code, 0, started.stderr);
    assert.ok(asked(emu).length > 60, "a large grant");
    const code = started.json<{ data: { device_code: string } }>().data.device_code;
    emu.approveDevice(code);
    const done = await larkit(["auth", "login", "--device-code", code]);
    assert.equal(done.code, 0, done.stderr);
    const bytes = new TextEncoder().encode(done.stdout + done.stderr).length;
    assert.ok(bytes <= 1024, `login printed ${bytes} bytes`);
    assert.ok(new TextEncoder().encode(started.stdout + started.stderr).length <= 1024);
    const data = done.json<{ data: { counts: Record<string, number>; missing: string[] } }>().data;
    assert.equal(data.counts.newly_granted, data.counts.granted);
    assert.deepEqual(data.missing, []);

    // The same user again with every list: nothing new, every list an array.
    const again = await larkit(["auth", "login", "--domain", "calendar", "--no-wait"]);
    const code2 = again.json<{ data: { device_code: string } }>().data.device_code;
    emu.approveDevice(code2);
    const full = await larkit(["auth", "login", "--device-code", code2, "--json"]);
    assert.equal(full.code, 0, full.stderr);
    const lists = full.json<{ data: Record<string, unknown> }>().data;
    assert.deepEqual(lists.newly_granted, []);
    assert.deepEqual(lists.missing, []);
    assert.ok(Array.isArray(lists.granted) && (lists.granted as string[]).length > 60);
  });
});
