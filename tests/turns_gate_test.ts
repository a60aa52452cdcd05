/**
 * Agent-server turns are a security boundary: a turn's command line is resolved by the one resolver
 * (`cli/resolve/`), and the host's gate is shown the leaf it resolved (`resolvedOf`: path, layer, service,
 * host, turn policy) before anything runs. These tests run command lines as a turn does (`cli/run.ts`'s
 * `runCli` with a gate) behind a gate that records what it is shown and refuses it, so nothing ever runs, and
 * check what the gate saw: for every service's first method and shortcut and a daily rotating sample of the
 * rest, every fixed command, raw `api` operands, and the shapes an attacker would try. A line the gate is not
 * shown must fail before it (a usage error, a host flag refused) or only print help.
 */
import assert from "node:assert/strict";
import { apiOperand, type ResolvedCommand, SUITE_TURN } from "../cli/command_meta.ts";
import { registryOf } from "../cli/api_commands/registry_of.ts";
import { FIXED_NAMES } from "../cli/resolve/fixed_commands.ts";
import { createRunContext } from "../cli/context.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { errors } from "../cli/output/errors.ts";
import type { Provider } from "../cli/provider.ts";
import { runCli } from "../cli/run.ts";
import { turnGate } from "../rpc/policy.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { cliProvider } from "./helpers/run_cli.ts";
import { daySeed, sampleOf } from "./helpers/sample.ts";

const REFUSED = "refused by the test's gate";

/** How a turn's command line ended, behind a gate that refuses whatever it is shown. */
type Outcome =
  | { kind: "gated"; cmd: ResolvedCommand }
  | { kind: "usage"; message: string; hint: string }
  | { kind: "host-flag"; message: string }
  | { kind: "help"; usage: string };

/** Runs `argv` as a turn does; fails the test if anything ran or the gate was shown more than one command. */
async function turn(configDir: string, argv: string[], label = JSON.stringify(argv)): Promise<Outcome> {
  const p: Provider & { out: { text(): string }; err: { text(): string } } = cliProvider({ configDir });
  const seen: ResolvedCommand[] = [];
  const code = await runCli(argv, p, {
    gate: (cmd) => {
      seen.push(structuredClone(cmd));
      return errors.permission(REFUSED);
    },
  });
  const stdout = p.out.text();
  const stderr = p.err.text();
  const error = stderr ? JSON.parse(stderr).error : undefined;
  if (seen.length > 0) {
    assert.equal(seen.length, 1, `${label}: the gate was asked twice`);
    assert.equal(error?.message, REFUSED, `${label}: the gate's refusal is what the line ended with`);
    assert.equal(stdout, "", `${label}: the gate refused, yet something was written`);
    // undefined-valued keys (a builtin's `service`) say nothing: compared as the JSON a host would log.
    return { kind: "gated", cmd: JSON.parse(JSON.stringify(seen[0])) };
  }
  if (code === 0) {
    // The only answer without a gate: help, which reads nothing and writes nothing.
    assert.match(stdout, /^Usage: larkit/, `${label}: exit 0 without the gate, and not help: something ran`);
    return { kind: "help", usage: stdout.split("\n")[0] };
  }
  assert.ok(error, `${label}: failed without an error envelope (code ${code})`);
  if (error.subtype === "usage") return { kind: "usage", message: error.message, hint: error.hint };
  assert.match(error.message, /^--(record|replay) cannot be used inside an agent-server turn$/, label);
  return { kind: "host-flag", message: error.message };
}

/** What the gate must be shown for a suite command (a generated method or a shortcut). */
const suite = (path: string[], layer: "api" | "shortcut"): ResolvedCommand => ({
  path,
  layer,
  service: path[0],
  turn: SUITE_TURN,
});

/** What the gate must be shown for raw `api` with this path operand. */
const rawApi = (operand: string): ResolvedCommand =>
  JSON.parse(JSON.stringify({ path: ["api"], layer: "api", ...apiOperand(operand), turn: SUITE_TURN }));

/** A server that forbids the command's service to remote devices refuses it for them (and only for them). */
function assertServiceForbidden(cmd: ResolvedCommand, label: string): void {
  const policy = { remoteOrigins: ["RemoteControl" as const], forbidWrites: true, forbiddenServices: [] };
  const forbidding = { ...policy, forbiddenServices: [cmd.service as string] };
  assert.equal(turnGate("RemoteControl", policy)(cmd), undefined, `${label}: allowed by default`);
  assert.match(turnGate("RemoteControl", forbidding)(cmd)?.message ?? "", /is not available to/, label);
  assert.equal(turnGate("Stdio", forbidding)(cmd), undefined, `${label}: a local turn is not restricted`);
}

/** Command lines an attacker would try on `words` (a command a turn may run), with how each must end. */
function attackShapes(
  words: string[],
  gated: ResolvedCommand,
): [string[], Outcome["kind"] | "gated or not run", ResolvedCommand?][] {
  const [service, ...rest] = words;
  return [
    // Words after `--` are arguments: a leaf that takes no more refuses them; never flags that change the run.
    [[...words, "--", "--dry-run"], "usage"],
    // `--` before the words: the gate is shown the command they name, or nothing runs.
    [["--", ...words], "gated or not run", gated],
    [[...words, "--as=bot", "--dry-run", "--dry-run"], "gated", gated],
    [[...words, "--record", "/tmp/x"], "host-flag"],
    [[...words, "--record=/tmp/x"], "host-flag"],
    [[...words, "--replay", "/tmp/x"], "host-flag"],
    [[...words, "--replay="], "host-flag"],
    [["--record", "/tmp/x", ...words], "host-flag"],
    // Near the host flags, not them: unknown options, never read as a record/replay.
    [[...words, "--rec", "/tmp/x"], "usage"],
    [[...words, "--record-id", "x"], "usage"],
    // A command's flag before its words is no global flag.
    [["--as", "bot", ...words], "usage"],
    [["help", ...words], "help"],
    [[...words, "--help"], "help"],
    [[...words, "-h"], "help"],
    [[...words, "extra"], "usage"],
    // Look-alikes of the service word: refused unless the change left it as it was (`im` has no "a").
    ...[
      service.toUpperCase(),
      // Cyrillic "а" and "е" for their Latin look-alikes.
      service.replace("a", "\u0430").replace("e", "\u0435"),
      service.slice(0, 3),
      `${service}\u200b`,
    ].map((word): [string[], Outcome["kind"], ResolvedCommand?] => [
      [word, ...rest],
      word === service ? "gated" : "usage",
      gated,
    ]),
  ];
}

async function assertShapes(configDir: string, words: string[], gated: ResolvedCommand): Promise<void> {
  for (const [argv, kind, cmd] of attackShapes(words, gated)) {
    const label = JSON.stringify(argv);
    const outcome = await turn(configDir, argv, label);
    if (kind !== "gated or not run") assert.equal(outcome.kind, kind, `${label}: ${JSON.stringify(outcome)}`);
    if (outcome.kind === "gated") assert.deepEqual(outcome.cmd, cmd, label);
  }
}

Deno.test("turn gate: every service's first method and shortcut, and a rotating sample, show the gate their leaf", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    const p = cliProvider({ configDir });
    const registry = await registryOf(createRunContext(p, prescanGlobals([], p.env)));
    // Every service's first method and first shortcut name, and of the rest (~1,700 lines: too many for every
    // run) a daily rotating sample; TURNS_GATE_SEED replays a day's.
    const always: [string[], ResolvedCommand][] = [];
    const rest: [string[], ResolvedCommand][] = [];
    for (const s of registry.listServices()) {
      if (FIXED_NAMES.has(s.name)) continue;
      (await registry.methods(s.name)).forEach((m, i) => {
        const path = [s.name, m.resource, m.name];
        (i === 0 ? always : rest).push([path, suite(path, "api")]);
      });
    }
    const methodLines = always.length + rest.length;
    for (const service of Object.keys(SHORTCUT_SERVICES)) {
      // An alias resolves to its shortcut: the gate is shown the shortcut's own name.
      const names = (await loadShortcuts(service)).flatMap((sc) =>
        [sc.command, ...(sc.aliases ?? [])].map((name) => [name, sc.command])
      );
      names.forEach(([name, command], i) =>
        (i === 0 ? always : rest).push([[service, name], suite([service, command], "shortcut")])
      );
    }
    assert.ok(
      methodLines > 1000 && always.length + rest.length - methodLines > 300,
      "the sweep's space shrank",
    );
    const seed = daySeed("TURNS_GATE_SEED");
    let gated = 0;
    for (const [words, want] of [...always, ...sampleOf(rest, 240, seed)]) {
      const label = `${words.join(" ")} (TURNS_GATE_SEED=${seed} to replay)`;
      const outcome = await turn(configDir, [...words, "--as", "bot", "--dry-run"], label);
      assert.equal(outcome.kind, "gated", `${label}: ${JSON.stringify(outcome)}`);
      if (outcome.kind !== "gated") continue;
      assert.deepEqual(outcome.cmd, want, label);
      assertServiceForbidden(outcome.cmd, label);
      gated++;
    }
    assert.ok(gated > 240, `${gated} lines gated`);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("turn gate: attack shapes on a method, a shortcut and raw api are gated as the plain line or fail first", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    await assertShapes(
      configDir,
      ["calendar", "calendars", "list"],
      suite(["calendar", "calendars", "list"], "api"),
    );
    await assertShapes(configDir, ["calendar", "+agenda"], suite(["calendar", "+agenda"], "shortcut"));
    await assertShapes(configDir, ["im", "+messages-send"], suite(["im", "+messages-send"], "shortcut"));
    const operand = "/open-apis/calendar/v4/calendars";
    await assertShapes(configDir, ["api", "GET", operand], rawApi(operand));
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("turn gate: raw api is shown the service and host its operand names, as apiOperand reads them", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    const cases: [string[], string, { service?: string; host?: string }][] = [
      [["api", "GET"], "/open-apis/calendar/v4/calendars", { service: "calendar" }],
      [["api", "GET", "--as", "bot"], "open-apis/calendar/v4/calendars", { service: "calendar" }],
      [["api", "get"], "/open-apis/Calendar/v4/x", { service: "calendar" }],
      [["api", "GET"], "/open-apis/%64rive/v1/files", { service: "drive" }],
      [["api", "GET"], "/open-apis//im/v1/chats", { service: "im" }],
      [["api", "GET"], "/open-apis/im;x/v1/chats", { service: "im" }],
      [["api", "GET"], "https://open.feishu.cn/open-apis/im/v1/chats", {
        service: "im",
        host: "open.feishu.cn",
      }],
      [["api", "GET"], "//x/open-apis/drive/v1/files", { host: "x" }],
      [["api", "GET"], "/open-apis/../../auth/v3/x", {}],
      // The operand is an argument wherever the flags stand.
      [["api", "--as", "bot", "GET"], "/open-apis/mail/v1/x", { service: "mail" }],
      [["api", "--format=json", "POST", "--data", "{}", "--yes"], "/open-apis/im/v1/messages", {
        service: "im",
      }],
    ];
    for (const [words, operand, want] of cases) {
      const argv = [...words, operand];
      const label = JSON.stringify(argv);
      const outcome = await turn(configDir, argv, label);
      assert.equal(outcome.kind, "gated", `${label}: ${JSON.stringify(outcome)}`);
      if (outcome.kind !== "gated") continue;
      assert.deepEqual(outcome.cmd, rawApi(operand), label);
      const { service, host } = outcome.cmd;
      assert.deepEqual(JSON.parse(JSON.stringify({ service, host })), want, label);
      if (want.host !== undefined) {
        assert.match(
          turnGate("RemoteControl", {
            remoteOrigins: ["RemoteControl"],
            forbidWrites: false,
            forbiddenServices: [],
          })(outcome.cmd)?.message ?? "",
          /names the host/,
          label,
        );
      }
    }
    // `--` makes the rest arguments: a third operand is one too many, not a path the gate is shown.
    for (
      const argv of [
        ["api", "GET", "/open-apis/calendar/v4/calendars", "--", "/open-apis/mail/v1/x"],
        ["api", "POST", "/open-apis/im/v1/messages", "--body", "{}"],
        ["api", "GET"],
        ["api", "--", "GET", "/open-apis/calendar/v4/calendars", "x"],
      ]
    ) {
      assert.equal((await turn(configDir, argv)).kind, "usage", JSON.stringify(argv));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("turn gate: fixed commands show the gate their own path and policy; lines they cannot take fail first", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    const refused = (path: string[]): [string[], boolean] => [path, false];
    const allowed = (path: string[]): [string[], boolean] => [path, true];
    const cases: [string[], [string[], boolean] | Outcome["kind"]][] = [
      [["config", "set", "endpoint", "https://evil.example"], refused(["config", "set"])],
      [["config", "show"], allowed(["config", "show"])],
      [["config", "show", "--as", "bot"], "usage"],
      [["auth", "login", "--as", "user"], "usage"],
      [["auth", "status"], allowed(["auth", "status"])],
      [["profile", "add", "x", "y"], "usage"],
      [["app-server", "--listen", "stdio"], refused(["app-server"])],
      [["remote-control"], refused(["remote-control"])],
      [["doctor"], refused(["doctor"])],
      [["sandbox", "run", "calendar", "+agenda"], refused(["sandbox", "run"])],
      [["registry", "refresh"], refused(["registry", "refresh"])],
      [["registry", "refresh", "x"], "usage"],
      [["event", "stop", "x"], "usage"],
      [["event", "consume", "x"], allowed(["event", "consume"])],
      [["schema", "calendar.calendars.list"], allowed(["schema"])],
      [["commands", "--format", "ndjson"], allowed(["commands"])],
      [["skills", "show", "im"], allowed(["skills", "show"])],
      [["completion", "bash"], allowed(["completion"])],
      [["help", "config", "set"], "help"],
      [["config", "set", "--help"], "help"],
      [["config"], "help"],
      [[], "help"],
      [["config", "nosuch"], "usage"],
      [["--record", "/tmp/x", "config", "show"], "host-flag"],
    ];
    for (const [argv, want] of cases) {
      const label = JSON.stringify(argv);
      const outcome = await turn(configDir, argv, label);
      if (typeof want === "string") {
        assert.equal(outcome.kind, want, `${label}: ${JSON.stringify(outcome)}`);
        continue;
      }
      assert.equal(outcome.kind, "gated", `${label}: ${JSON.stringify(outcome)}`);
      if (outcome.kind !== "gated") continue;
      const [path, turnAllowed] = want;
      assert.deepEqual(outcome.cmd.path, path, label);
      assert.equal(outcome.cmd.layer, "builtin", label);
      assert.equal(outcome.cmd.service, undefined, label);
      assert.equal(outcome.cmd.turn?.allowed, turnAllowed, label);
      // The server's gate refuses what the policy refuses, for every origin.
      const verdict = turnGate("Stdio", { remoteOrigins: [], forbidWrites: false, forbiddenServices: [] })(
        outcome.cmd,
      );
      assert.equal(verdict === undefined, turnAllowed, label);
    }
    // Every fixed name, alone and with words it may not take: gated as itself, else failed first or help.
    for (const name of FIXED_NAMES) {
      for (const argv of [[name], [name, "a", "b"], [name, "+x"]]) {
        const outcome = await turn(configDir, argv);
        if (outcome.kind === "gated") {
          assert.equal(outcome.cmd.path[0], name, JSON.stringify(argv));
          assert.ok(outcome.cmd.turn, `${JSON.stringify(argv)}: a fixed command without a turn policy`);
        } else {assert.ok(
            ["usage", "help"].includes(outcome.kind),
            `${JSON.stringify(argv)}: ${outcome.kind}`,
          );}
      }
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("turn gate: unknown words and flags on suite lines are usage errors before any gate", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    for (
      const argv of [
        ["calendar", "calendars", "list", "--no-such-flag"],
        ["calendar", "calendars", "list", "--dry-run=yes"],
        ["calendar", "calendars", "get", "--params={}", "--page-size", "1"],
        ["calendar", "+agenda", "--no-such-flag"],
        ["calendar", "+nosuch"],
        ["calendar", "nosuch", "list"],
        ["calendar", "calendars", "nosuch"],
        ["im", "+msgs-send"],
        ["nosuch", "x", "y"],
      ]
    ) {
      const outcome = await turn(configDir, argv);
      assert.equal(outcome.kind, "usage", `${JSON.stringify(argv)}: ${JSON.stringify(outcome)}`);
    }
    for (
      const [argv, path] of [
        [["calendar", "calendars", "list", "--as", "bot", "--format=json", "--jq", ".data"], [
          "calendar",
          "calendars",
          "list",
        ]],
        [["calendar", "calendars", "list", "--profile", "other"], ["calendar", "calendars", "list"]],
        [["--profile", "other", "calendar", "calendars", "list"], ["calendar", "calendars", "list"]],
        [["im", "messages", "create", "--as", "user", "--data", "{}", "--params", "{}"], [
          "im",
          "messages",
          "create",
        ]],
      ]
    ) {
      const outcome = await turn(configDir, argv);
      assert.equal(outcome.kind, "gated", `${JSON.stringify(argv)}: ${JSON.stringify(outcome)}`);
      if (outcome.kind === "gated") assert.deepEqual(outcome.cmd, suite(path, "api"));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});
