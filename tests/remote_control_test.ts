/**
 * `larkit remote-control` end to end: `main.ts` as a subprocess starts the background daemon, which enrolls with
 * the dev relay (in this process, on loopback) using the user login larkit holds for the suite emulator; a
 * remote client then runs `calendar +agenda` through the relay. Also: disallowed relay URLs and app-only
 * credentials refused through main.ts, and the status transitions a local client of the daemon hears.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DaemonClient, RELAY_BACKOFF_ENV, type StatusView } from "../relay/daemon.ts";
import { DevRelay, type DevRelayOptions, NOT_FOUND_BODY } from "../relay/dev_relay.ts";
import { redeemPairingCode, RemoteClient } from "../relay/remote_client.ts";
import { probeSocket } from "../rpc/transports/unix.ts";
import { type Emulator, manualClock, startEmulator } from "./helpers/emulator.ts";
import { seedLogin } from "./helpers/login.ts";
import { errorOf, runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";
import { runMain, spawnMain } from "./helpers/run_main.ts";
import { type PairingStarter, pairRemoteClient } from "./helpers/pair_device.ts";
import { until, within } from "./helpers/until.ts";

const DAY = "--start 2026-11-23 --end 2026-11-23";

interface Harness {
  emu: Emulator;
  relay: DevRelay;
  dir: string;
  socket: string;
  /**
   * larkit in-process: for what refuses before any daemon or relay connection exists, and for what reaches a
   * running daemon over its socket (status, stop, a start that finds it running).
   */
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** `main.ts` as a process, for what starts the daemon: the detached daemon inherits the process's environment. */
  spawn(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Daemon processes this test started; killed in `finally` if still alive. */
  pids: number[];
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

async function harness(
  opts: { login: boolean; relay?: DevRelayOptions },
  fn: (h: Harness) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({ clock: manualClock(), timeZone: "UTC" });
  const relay = DevRelay.start(opts.relay);
  const dir = await Deno.makeTempDir({ prefix: "larkit-rc-" });
  const h: Harness = {
    emu,
    relay,
    dir,
    socket: join(dir, "state", "remote-control.sock"),
    pids: [],
    run: (args, o = {}) =>
      runCli(args, { ...o, configDir: dir, env: { TZ: "UTC", LARKIT_RELAY_URL: relay.baseUrl, ...o.env } }),
    spawn: (args, o = {}) =>
      runMain(args, { ...o, configDir: dir, env: { TZ: "UTC", LARKIT_RELAY_URL: relay.baseUrl, ...o.env } }),
  };
  try {
    const init = await h.run(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    if (opts.login) await seedLogin(emu, dir);
    await fn(h);
  } finally {
    for (const pid of h.pids) {
      if (alive(pid)) Deno.kill(pid, "SIGKILL");
    }
    await relay.close();
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The server side of pairing as a person starts it: `larkit remote-control pair` (through the daemon if one runs). */
function cliPairing(h: Harness): PairingStarter {
  return {
    pair: async () => {
      const r = await h.run(["remote-control", "pair"]);
      assert.equal(r.code, 0, r.stderr);
      return r.json<{ data: Pairing }>().data;
    },
  };
}

type Envelope = {
  ok: boolean;
  data: StatusView & { mode: string; daemon: { running: boolean; pid?: number } };
};

Deno.test("start spawns the daemon; a remote client runs calendar +agenda through the relay; stop; shutdown", async () => {
  await harness({ login: true }, async (h) => {
    const before = await h.run(["remote-control", "status"]);
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.json<Envelope>().data.daemon.running, false);
    assert.equal(await probeSocket(h.socket), "absent", "status starts nothing");

    const started = await h.spawn(["remote-control", "start"]);
    assert.equal(started.code, 0, started.stderr);
    const s = started.json<Envelope>().data;
    if (s.daemon.pid) h.pids.push(s.daemon.pid);
    assert.deepEqual([s.mode, s.status, s.environmentId], ["daemon", "connected", "env_dev_1"]);
    assert.ok(s.daemon.pid, "this start spawned the daemon");
    assert.equal(h.relay.stats.enrollments, 1);
    const handshake = h.relay.stats.handshakeHeaders[0];
    assert.equal(handshake["svc-account-id"], undefined, "the strict relay takes the server token only");
    assert.equal(handshake["authorization"], `Bearer ${h.relay.issuedTokens[0]}`);
    assert.equal(handshake["x-svc-protocol-version"], "3");
    // The detached daemon has no terminal: what it has to say lands in its log file.
    const daemonLog = await Deno.readTextFile(join(h.socket, "..", "remote-control.log"));
    assert.match(daemonLog, /^\d{4}-\d\d-\d\dT.* app-server: /m);

    const heard: string[] = [];
    const local = await within(
      "the daemon's socket",
      DaemonClient.connect(h.socket, "test", (method, params) => {
        if (method === "remoteControl/status/changed") heard.push((params as StatusView).status);
      }),
    );
    const phone = await within("the relay", pairRemoteClient(h.relay, cliPairing(h)));
    try {
      const stream = phone.stream("s1");
      const seen: { method?: string; params?: Record<string, unknown> }[] = [];
      stream.onMessage((m) => seen.push(m as { method?: string }));
      const init = await within(
        "initialize",
        stream.request("initialize", {
          clientInfo: { name: "phone", version: "1" },
          capabilities: { experimentalApi: true },
        }),
      ) as { connection: { origin: string } };
      assert.equal(init.connection.origin, "RemoteControl");
      stream.send({ jsonrpc: "2.0", method: "initialized" });
      const { thread } = await within("thread/start", stream.request("thread/start", {})) as {
        thread: { id: string };
      };
      await within(
        "turn/start",
        stream.request("turn/start", {
          threadId: thread.id,
          input: [{ type: "text", text: `larkit calendar +agenda --as user ${DAY}` }],
        }),
      );
      await until("turn/completed", () => seen.some((m) => m.method === "turn/completed"), 60_000);
      const done = seen.find((m) => m.method === "turn/completed")?.params?.turn as {
        status: string;
        exitCode: number;
        result?: { ok: boolean; identity: string; data: { summary: string }[] };
      };
      assert.equal(done.status, "completed", JSON.stringify(done));
      assert.equal(done.exitCode, 0);
      assert.equal(done.result?.identity, "user");
      assert.deepEqual(done.result?.data.map((e) => e.summary), [
        "Team offsite",
        "Daily stand-up",
        "Design review: larkit agent server",
        "1:1 Alice / Bob",
      ]);
      const methods = seen.map((m) => m.method);
      assert.ok(methods.includes("command/exec/outputDelta"), methods.join(","));
      assert.ok(methods.indexOf("turn/started") < methods.indexOf("turn/completed"));

      const stopped = await h.run(["remote-control", "stop"]);
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.deepEqual(
        [stopped.json<Envelope>().data.status, stopped.json<Envelope>().data.environmentId],
        ["disabled", null],
      );
      // The relay learns of the close when the closing handshake reaches it, a moment after the answer.
      await until("the relay sees the server socket closed", () => !h.relay.serverConnected);
      assert.equal(await probeSocket(h.socket), "live", "stop keeps the daemon");

      const again = await h.run(["remote-control", "start"]);
      assert.equal(again.code, 0, again.stderr);
      const a = again.json<Envelope>().data;
      assert.equal(a.status, "connected");
      assert.equal(a.daemon.pid, undefined, "the running daemon was reached, not a second one started");
      assert.equal(a.environmentId, "env_dev_1", "the stored enrollment is reused");
      assert.equal(h.relay.stats.enrollments, 1);
      const status = await h.run(["remote-control", "status"]);
      assert.equal(status.json<Envelope>().data.status, "connected");
      await until("status changes", () => heard.length >= 4);
      assert.deepEqual(heard, ["connected", "disabled", "connecting", "connected"]);
    } finally {
      phone.close();
      local.close();
    }

    const shut = await h.run(["remote-control", "stop", "--shutdown"]);
    assert.equal(shut.code, 0, shut.stderr);
    assert.deepEqual([shut.json<Envelope>().data.status, shut.json<Envelope>().data.daemon.running], [
      "disabled",
      false,
    ]);
    assert.equal(await probeSocket(h.socket), "absent");
    await until("the daemon process exits", () => !alive(s.daemon.pid as number));
  });
});

type Pairing = {
  pairingCode: string;
  manualPairingCode: string | null;
  environmentId: string;
  expiresAt: number;
};
type Device = { clientId: string; displayName: string | null; lastSeenAt: number | null };
type Host = { environmentId: string; online: boolean; current: boolean };

Deno.test("pair, clients and hosts: a paired device connects, is listed, reported by stop, revoked and refused; hosts list/delete", async () => {
  await harness({ login: true }, async (h) => {
    // Pairing while disabled, before any daemon: this process reuses or makes the enrollment, connects nothing.
    const early = await h.run(["remote-control", "pair"]);
    assert.equal(early.code, 0, early.stderr);
    const code = early.json<{ data: Pairing }>().data;
    assert.match(code.pairingCode, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    assert.equal(code.manualPairingCode, null);
    assert.equal(code.environmentId, "env_dev_1");
    assert.match(early.stderr, new RegExp(`Pairing code: ${code.pairingCode} -- expires at \\d{4}-`));
    assert.deepEqual([h.relay.stats.enrollments, h.relay.stats.handshakes], [1, 0]);
    assert.equal(await probeSocket(h.socket), "absent", "pair starts no daemon");

    const started = await h.spawn(["remote-control", "start"]);
    assert.equal(started.code, 0, started.stderr);
    const s = started.json<Envelope>().data;
    if (s.daemon.pid) h.pids.push(s.daemon.pid);
    assert.deepEqual(
      [s.status, s.environmentId],
      ["connected", "env_dev_1"],
      "the paired enrollment is reused",
    );
    assert.equal(h.relay.stats.enrollments, 1);

    await assert.rejects(
      RemoteClient.connect(h.relay.clientUrl("intruder"), "intruder"),
      /403/,
      "never paired",
    );
    const paired = await redeemPairingCode(fetch, h.relay.pairUrl, {
      pairing_code: code.pairingCode,
      display_name: "Ada's phone",
    });
    const phone = await RemoteClient.connect(h.relay.clientUrl(paired.client_id), paired.client_id, {
      token: paired.client_token,
    });
    try {
      await within(
        "initialize",
        phone.stream("s1").request("initialize", { clientInfo: { name: "p", version: "1" } }),
      );

      const listed = await h.run(["remote-control", "clients"]);
      assert.equal(listed.code, 0, listed.stderr);
      const devices = listed.json<{ data: { clients: Device[] } }>().data.clients;
      assert.deepEqual(devices.map((d) => [d.clientId, d.displayName]), [[paired.client_id, "Ada's phone"]]);
      assert.equal(typeof devices[0].lastSeenAt, "number", "its last-seen time");

      const viaDaemon = await h.run(["remote-control", "pair", "--manual-code"]);
      assert.equal(viaDaemon.code, 0, viaDaemon.stderr);
      const second = viaDaemon.json<{ data: Pairing }>().data;
      assert.equal(second.environmentId, "env_dev_1");
      assert.match(second.manualPairingCode ?? "", /^\d{6}$/);

      // stop does not revoke (the relay protocol's disable), but never silently: it names who can come back.
      const stopped = await h.run(["remote-control", "stop"]);
      assert.equal(stopped.code, 0, stopped.stderr);
      const st = stopped.json<{ data: { status: string; pairedClients: Device[] } }>().data;
      assert.equal(st.status, "disabled");
      assert.deepEqual(st.pairedClients.map((d) => d.clientId), [paired.client_id]);
      assert.match(stopped.stderr, /1 paired device\(s\) can reconnect when remote control is started again/);
      const again = await h.run(["remote-control", "start"]);
      assert.equal(again.json<Envelope>().data.status, "connected");
      await within(
        "initialize after restart",
        phone.stream("s2").request("initialize", { clientInfo: { name: "p", version: "1" } }),
      );

      const closedBefore = h.relay.stats.clientClosedSent;
      const revoked = await h.run(["remote-control", "clients", "revoke", paired.client_id]);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.deepEqual(revoked.json<{ data: unknown }>().data, { clientId: paired.client_id, revoked: true });
      await until(
        "its open streams closed at once",
        () => h.relay.stats.clientClosedSent >= closedBefore + 2,
      );
      await assert.rejects(
        RemoteClient.connect(h.relay.clientUrl(paired.client_id), paired.client_id, {
          token: paired.client_token,
        }),
        /403/,
        "the revoked device is refused",
      );
      const after = await h.run(["remote-control", "clients", "list"]);
      assert.deepEqual(after.json<{ data: { clients: Device[] } }>().data.clients, []);
      const usage = await h.run(["remote-control", "clients", "revoke"]);
      assert.equal(usage.code, 2, usage.stderr);
    } finally {
      phone.close();
    }

    // stop --revoke-clients: nothing paired can come back.
    const fresh = await h.run(["remote-control", "pair"]);
    const tablet = await redeemPairingCode(fetch, h.relay.pairUrl, {
      pairing_code: fresh.json<{ data: Pairing }>().data.pairingCode,
    });
    const revokedAll = await h.run(["remote-control", "stop", "--revoke-clients"]);
    assert.equal(revokedAll.code, 0, revokedAll.stderr);
    assert.deepEqual(revokedAll.json<{ data: { pairedClients: Device[] } }>().data.pairedClients, []);
    assert.match(revokedAll.stderr, /Revoked 1 paired device\(s\)/);
    await assert.rejects(
      RemoteClient.connect(h.relay.clientUrl(tablet.client_id), tablet.client_id, {
        token: tablet.client_token,
      }),
      /403/,
    );
    const restarted = await h.run(["remote-control", "start"]);
    assert.equal(restarted.json<Envelope>().data.status, "connected");

    // `larkit relay client --pairing-code` pairs first, then drives a stream as that device.
    const byHand = (await h.run(["remote-control", "pair"])).json<{ data: Pairing }>().data.pairingCode;
    const driven = await h.run(["relay", "client", "--relay", h.relay.baseUrl, "--pairing-code", byHand], {
      stdin: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { clientInfo: { name: "by-hand", version: "1" } },
      }) + "\n",
    });
    assert.equal(driven.code, 0, driven.stderr);
    assert.match(driven.stderr, /Paired as cli_dev_\d+\./);
    assert.match(driven.stdout, /"origin":"RemoteControl"/);

    const hosts = await h.run(["remote-control", "hosts"]);
    assert.equal(hosts.code, 0, hosts.stderr);
    assert.deepEqual(
      hosts.json<{ data: { hosts: Host[] } }>().data.hosts.map((x) => [x.environmentId, x.online, x.current]),
      [["env_dev_1", true, true]],
    );
    const stale = await h.run(["remote-control", "hosts", "--stale"]);
    assert.deepEqual(stale.json<{ data: { hosts: Host[] } }>().data.hosts, [], "this machine is never stale");
    const deleted = await h.run(["remote-control", "hosts", "delete", "env_dev_1"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json<{ data: unknown }>().data, { deleted: ["env_dev_1"] });
    const left = await h.run(["remote-control", "hosts"]);
    assert.ok(
      !left.json<{ data: { hosts: Host[] } }>().data.hosts.some((x) => x.environmentId === "env_dev_1"),
      left.stdout,
    );

    const shut = await h.run(["remote-control", "stop", "--shutdown"]);
    assert.equal(shut.code, 0, shut.stderr);
    await until("the daemon process exits", () => !alive(s.daemon.pid as number));
  });
});

Deno.test("pair answered 404 re-enrolls once and retries; hosts --stale lists and deletes another machine of the account", async () => {
  await harness({ login: true }, async (h) => {
    const first = await h.run(["remote-control", "pair"]);
    assert.equal(first.json<{ data: Pairing }>().data.environmentId, "env_dev_1");
    h.relay.faults.forgetServers();
    const second = await h.run(["remote-control", "pair"]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.json<{ data: Pairing }>().data.environmentId, "env_dev_2");
    assert.equal(h.relay.stats.enrollments, 2, "enrolled again exactly once");
    const hosts = await h.run(["remote-control", "hosts"]);
    assert.deepEqual(
      hosts.json<{ data: { hosts: Host[] } }>().data.hosts.map((x) => [x.environmentId, x.online, x.current]),
      [["env_dev_2", false, true]],
    );

    // Another machine of the same account, enrolled by pairing and never connected: stale from here.
    const other = await Deno.makeTempDir({ prefix: "larkit-rc-other-" });
    try {
      const env = { TZ: "UTC", LARKIT_RELAY_URL: h.relay.baseUrl };
      const init = await runCli(
        ["config", "init", "--app-id", h.emu.app.appId, "--app-secret-stdin", "--base-url", h.emu.url],
        { configDir: other, env, stdin: `${h.emu.app.appSecret}\n` },
      );
      assert.equal(init.code, 0, init.stderr);
      await seedLogin(h.emu, other);
      const paired = await runCli(["remote-control", "pair"], { configDir: other, env });
      assert.equal(paired.json<{ data: Pairing }>().data.environmentId, "env_dev_3");
    } finally {
      await Deno.remove(other, { recursive: true });
    }
    const stale = await h.run(["remote-control", "hosts", "--stale"]);
    assert.deepEqual(stale.json<{ data: { hosts: Host[] } }>().data.hosts.map((x) => x.environmentId), [
      "env_dev_3",
    ]);
    const cleaned = await h.run(["remote-control", "hosts", "delete", "--stale"]);
    assert.equal(cleaned.code, 0, cleaned.stderr);
    assert.deepEqual(cleaned.json<{ data: unknown }>().data, { deleted: ["env_dev_3"] });
    const left = await h.run(["remote-control", "hosts"]);
    assert.deepEqual(left.json<{ data: { hosts: Host[] } }>().data.hosts.map((x) => x.environmentId), [
      "env_dev_2",
    ]);

    // stop without a daemon still says which devices could come back (none here), and connects nothing.
    const stopped = await h.run(["remote-control", "stop"]);
    assert.equal(stopped.code, 0, stopped.stderr);
    const st = stopped.json<{ data: { pairedClients: Device[]; daemon: { running: boolean } } }>().data;
    assert.deepEqual([st.pairedClients, st.daemon.running], [[], false]);
    assert.equal(h.relay.stats.handshakes, 0, "pair, hosts and stop never opened a relay socket");
  });
});

Deno.test("disallowed relay URLs are refused before anything starts", async () => {
  await harness({ login: true }, async (h) => {
    const cases: [string[], Record<string, string>][] = [
      [["remote-control", "start", "--relay-url", "https://example.com/"], {}],
      [["remote-control", "start", "--relay-url", "https://open.feishu.cn.evil.com/"], {}],
      [["remote-control"], { LARKIT_RELAY_URL: "http://open.feishu.cn/" }],
      [["remote-control", "--no-daemon", "--relay-url", "https://foo.localhost/"], {}],
    ];
    for (const [args, env] of cases) {
      const r = await h.run(args, { env });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      const err = errorOf(r);
      assert.equal(err.type, "validation");
      assert.match(err.message, /^invalid remote control URL `.+`; expected HTTPS URL for feishu\.cn/);
    }
    // A wait that is not a whole number of milliseconds in range is refused as the flag's own error.
    for (const wait of ["soon", "-1", "600001"]) {
      const r = await h.run(["remote-control", "start", "--wait-ms", wait]);
      assert.equal(r.code, 2, `--wait-ms ${wait}: ${r.stderr}`);
      assert.match(errorOf(r).message, /--wait-ms/);
    }
    assert.equal(await probeSocket(h.socket), "absent");
    assert.equal(h.relay.stats.enrollments, 0);
  });
});

Deno.test("app-only credentials give the account-authentication error, in front, daemon and foreground", async () => {
  await harness({ login: false }, async (h) => {
    for (const args of [["remote-control", "start"], ["remote-control", "--no-daemon"]]) {
      const r = await h.run(args);
      assert.equal(r.code, 3, `${args.join(" ")}: ${r.stderr}`);
      const err = errorOf(r);
      assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
      assert.match(err.message, /remote control requires account authentication/);
      assert.match(err.hint ?? "", /larkit auth login/);
    }
    assert.equal(await probeSocket(h.socket), "absent", "no daemon was started for nothing");

    // A daemon that only has app credentials refuses enable itself, with the same error.
    const daemon = spawnMain(
      ["app-server", "--listen", `unix:${h.socket}`, "--remote-control"],
      { LARKIT_CONFIG_DIR: h.dir, LARKIT_RELAY_URL: h.relay.baseUrl },
      { stdout: "null", stderr: "null" },
    );
    h.pids.push(daemon.pid);
    try {
      await until("the daemon's socket", async () => await probeSocket(h.socket) === "live", 60_000);
      const local = await DaemonClient.connect(h.socket, "test");
      await assert.rejects(
        local.call("remoteControl/enable"),
        (e: Error & { subtype?: string }) =>
          e.subtype === "auth" && /requires account authentication/.test(e.message),
      );
      const status = await local.call("remoteControl/status/read") as StatusView;
      assert.equal(status.status, "disabled");
      await local.call("daemon/shutdown").catch(() => {/* the reply may be cut off by the shutdown */});
      assert.equal((await daemon.status).code, 0);
      local.close();
    } finally {
      if (alive(daemon.pid)) daemon.kill("SIGKILL");
    }
    assert.equal(h.relay.stats.enrollments, 0);
  });
});

Deno.test("--no-daemon serves remote control in the foreground until Ctrl-C, then prints its envelope", async () => {
  await harness({ login: true }, async (h) => {
    const child = spawnMain(["remote-control", "--no-daemon"], {
      TZ: "UTC",
      LARKIT_CONFIG_DIR: h.dir,
      LARKIT_RELAY_URL: h.relay.baseUrl,
    });
    h.pids.push(child.pid);
    const stdout = new Response(child.stdout).text();
    const stderr = new Response(child.stderr).text();
    try {
      await until("the relay connection", () => h.relay.serverConnected, 60_000);
      const phone = await within("the relay", pairRemoteClient(h.relay, cliPairing(h)));
      try {
        const stream = phone.stream("s1");
        await within(
          "initialize",
          stream.request("initialize", {
            clientInfo: { name: "phone", version: "1" },
            capabilities: { experimentalApi: true },
          }),
        );
        const status = await within("status/read", stream.request("remoteControl/status/read")) as StatusView;
        assert.deepEqual([status.status, status.environmentId], ["connected", "env_dev_1"]);
      } finally {
        phone.close();
      }
      assert.equal(await probeSocket(h.socket), "absent", "the foreground server starts no daemon");
      child.kill("SIGINT");
      assert.equal((await child.status).code, 0);
      const doc = JSON.parse(await stdout) as Envelope;
      assert.deepEqual([doc.data.mode, doc.data.status], ["foreground", "disabled"]);
      const said = await stderr;
      assert.match(said, /^Starting app-server with remote control enabled\.\.\.$/m);
      assert.match(said, /^This machine is available for remote control as .+\.$/m);
      assert.match(said, /^Press Ctrl-C to stop\.$/m);
    } finally {
      if (alive(child.pid)) child.kill("SIGKILL");
      await stdout.catch(() => "");
      await stderr.catch(() => "");
    }
  });
});

// The backoff grows across these reconnects (none stays up the 10 s that resets it); the daemon starts it at
// 20 ms instead of 200 (LARKIT_RELAY_BACKOFF_MS), so the test waits on the relay rather than on the backoff.
// A relay refusing for a while (status `connecting` with the last error) is covered in relay/daemon_test.ts.
Deno.test("the daemon against the strict relay: token expiry, 401, generic and 'not found' 404s", async () => {
  // Tokens live 31 s: fresh at enroll (more than the 30 s margin), due for refresh at any later reconnect.
  await harness({ login: true, relay: { tokenTtlMs: 31_000 } }, async (h) => {
    const started = await h.spawn(["remote-control", "start"], { env: { [RELAY_BACKOFF_ENV]: "20" } });
    assert.equal(started.code, 0, started.stderr);
    const s = started.json<Envelope>().data;
    if (s.daemon.pid) h.pids.push(s.daemon.pid);
    assert.equal(s.status, "connected");
    const status = async () => (await h.run(["remote-control", "status"])).json<Envelope>().data;
    const reconnect = async (what: string, handshakes: number) => {
      h.relay.faults.dropServerSocket();
      await until(what, () => h.relay.stats.handshakes === handshakes && h.relay.serverConnected, 60_000);
    };

    // Token expiry mid-session: nothing happens while connected; the next reconnect refreshes first.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(h.relay.stats.refreshes, 0);
    await reconnect("reconnect after expiry", 2);
    assert.equal(h.relay.stats.refreshes, 1);
    assert.deepEqual(h.relay.stats.refusals, [], "refreshed before the handshake");
    assert.equal(
      h.relay.stats.handshakeHeaders.at(-1)?.["authorization"],
      `Bearer ${h.relay.issuedTokens[1]}`,
    );

    // 401, then success: the server token is refreshed and the loop goes on.
    h.relay.faults.rejectHandshakes(401, { body: '{"detail":"unauthorized"}' });
    await reconnect("reconnect after a 401", 3);
    assert.deepEqual(h.relay.stats.refusals, [401]);

    // A generic 404 keeps the enrollment.
    h.relay.faults.rejectHandshakes(404, { body: '{"detail":"Not Found"}' });
    await reconnect("reconnect after a generic 404", 4);
    assert.equal(h.relay.stats.enrollments, 1);
    assert.equal((await status()).environmentId, "env_dev_1");

    // 404 "Remote app server not found" deletes the enrollment and enrolls again at once.
    h.relay.faults.rejectHandshakes(404, { body: NOT_FOUND_BODY });
    await reconnect("reconnect after re-enrolling", 5);
    assert.equal(h.relay.stats.enrollments, 2);
    const now = await status();
    assert.deepEqual([now.status, now.environmentId], ["connected", "env_dev_2"]);

    const shut = await h.run(["remote-control", "stop", "--shutdown"]);
    assert.equal(shut.code, 0, shut.stderr);
  });
});

/** `main.ts app-server` on stdio as a live child: JSON-RPC lines in, lines out, until stdin closes. */
function appServerProcess(dir: string, env: Record<string, string>) {
  const child = spawnMain(["app-server"], { ...env, LARKIT_CONFIG_DIR: dir }, { stdin: "piped" });
  const lines: Record<string, unknown>[] = [];
  const reading = (async () => {
    let buf = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    }
  })();
  const writer = child.stdin.getWriter();
  return {
    lines,
    send: (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n")),
    async stop() {
      await writer.close();
      await child.status;
      await reading;
      await child.stderr.cancel();
    },
  };
}

Deno.test("app-server: remoteControl/* on a plain server; restarted with the preference it reconnects by itself", async () => {
  await harness({ login: true }, async (h) => {
    const env: Record<string, string> = { TZ: "UTC", LARKIT_RELAY_URL: h.relay.baseUrl };
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "probe", version: "1" }, capabilities: { experimentalApi: true } },
    };
    const statusOf = (m: Record<string, unknown>) =>
      m.method === "remoteControl/status/changed" ? (m.params as StatusView).status : undefined;

    const first = appServerProcess(h.dir, env);
    await first.send(init);
    await first.send({ jsonrpc: "2.0", id: 2, method: "remoteControl/status/read" });
    await until("status read", () => first.lines.some((m) => m.id === 2), 60_000);
    assert.equal((first.lines.find((m) => m.id === 2)?.result as StatusView).status, "disabled");
    assert.equal(first.lines[0].id, 1, "the initialize response comes first");
    await first.send({ jsonrpc: "2.0", id: 3, method: "remoteControl/enable" });
    await until("connected", () => first.lines.some((m) => statusOf(m) === "connected"), 60_000);
    await first.stop();
    assert.deepEqual([h.relay.stats.enrollments, h.relay.stats.handshakes], [1, 1]);

    const second = appServerProcess(h.dir, env);
    await second.send(init);
    await until("reconnected by itself", () => second.lines.some((m) => statusOf(m) === "connected"), 60_000);
    assert.equal(h.relay.stats.enrollments, 1, "the persisted enrollment was reused");
    assert.equal(h.relay.stats.refreshes, 1, "refresh, then handshake");
    assert.equal(h.relay.stats.handshakes, 2);
    await second.stop();
  });
});
