/**
 * Agent-server turns take the lean resolver (`cli/fast/method.ts`) when it can resolve the command line, so
 * the turn gate is decided on the lean resolver's resolution instead of commander's leaf. The agent server is a
 * security boundary: for every command line the lean resolver puts to a gate, the tree must put exactly the
 * same command to it (path, layer, service, policy), hence the same verdict; every other line must be left to
 * the tree (never run, never refused by lean on a different reading). This sweeps every service and a daily
 * rotating sample of its generated methods and shortcuts, every fixed command, and the shapes an attacker
 * would try, through both.
 */
import assert from "node:assert/strict";
import type { CommandGate, ResolvedCommand } from "../cli/command_meta.ts";
import { createRunContext, type RunContext, type RunHooks } from "../cli/context.ts";
import { runLean } from "../cli/fast/method.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { errors } from "../cli/output/errors.ts";
import type { Provider } from "../cli/provider.ts";
import { runCli } from "../cli/run.ts";
import { runTree } from "../cli/run_tree.ts";
import { buildTree } from "../cli/tree.ts";
import { registryOf } from "../cli/api_commands/registry_of.ts";
import { FIXED_NAMES } from "../cli/commands/index.ts";
import { turnGate } from "../rpc/policy.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { cliProvider } from "./helpers/run_cli.ts";
import { daySeed, sampleOf } from "./helpers/sample.ts";

const HOOKS: RunHooks = {
  tree: (argv, ctx, opts) => buildTree(argv, ctx, opts),
  run: (argv, p, opts) => runCli(argv, p, opts),
};

/** A gate that records what it is shown and refuses it, so nothing ever runs. */
function recordingGate(): { seen: ResolvedCommand[]; gate: CommandGate } {
  const seen: ResolvedCommand[] = [];
  return {
    seen,
    gate: (cmd) => {
      seen.push(structuredClone(cmd));
      return errors.permission("refused by the test's gate");
    },
  };
}

const contextFor = (p: Provider, argv: string[]): RunContext =>
  createRunContext(p, prescanGlobals(argv, p.env), argv, HOOKS);

/** The verdicts of the server's gate for every origin and a policy that forbids the command's service. */
function verdicts(cmd: ResolvedCommand): (string | undefined)[] {
  const policy = {
    remoteOrigins: ["RemoteControl" as const],
    forbidWrites: true,
    forbiddenServices: cmd.service ? [cmd.service] : [],
  };
  return (["Stdio", "InProcess", "WebSocket", "RemoteControl"] as const).map((o) =>
    turnGate(o, policy)(cmd)?.message
  );
}

interface Outcome {
  /** The lean resolver put the command to the gate. */
  gated: boolean;
  /** It left the line to the tree (undefined) or refused it as a usage error before any gate (thrown). */
  leftToTree: boolean;
}

async function compare(p: Provider, argv: string[], label = JSON.stringify(argv)): Promise<Outcome> {
  const lean = recordingGate();
  let code: number | undefined;
  let leanError: unknown;
  try {
    code = await runLean(argv, contextFor(p, argv), lean.gate);
  } catch (e) {
    leanError = e;
  }
  // The gate refuses everything, so the lean path can only have run something by skipping the gate.
  assert.equal(code, undefined, `${label}: the lean path ran a command without its gate`);
  if (lean.seen.length === 0 && leanError === undefined) return { gated: false, leftToTree: true };

  const tree = recordingGate();
  try {
    await runTree(argv, contextFor(p, argv), tree.gate);
  } catch {
    // A refusal or a usage error: what matters is what the gate was shown.
  }
  assert.deepEqual(lean.seen, tree.seen, `${label}: lean and tree put different commands to the gate`);
  for (const [k, cmd] of lean.seen.entries()) {
    assert.deepEqual(verdicts(cmd), verdicts(tree.seen[k]), `${label}: different verdicts`);
  }
  return { gated: lean.seen.length > 0, leftToTree: false };
}

/** Command lines an attacker would try on a command the lean path resolves. */
function attackShapes(words: string[]): string[][] {
  const [service, ...rest] = words;
  return [
    [...words, "--", "--dry-run"],
    ["--", ...words],
    [...words, "--as=bot", "--dry-run", "--dry-run"],
    [...words, "--record", "/tmp/x"],
    [...words, "--record=/tmp/x"],
    [...words, "--replay", "/tmp/x"],
    [...words, "--rec", "/tmp/x"],
    [...words, "--record-id", "x"],
    [...words, "--replay="],
    ["--as", "bot", ...words],
    ["--record", "/tmp/x", ...words],
    ["help", ...words],
    [...words, "--help"],
    [...words, "-h"],
    [...words, "extra"],
    [service.toUpperCase(), ...rest],
    // Cyrillic "а" and "е" for their Latin look-alikes.
    [service.replace("a", "\u0430").replace("e", "\u0435"), ...rest],
    [service.slice(0, 3), ...rest],
    [`${service}\u200b`, ...rest],
  ];
}

Deno.test("turn gate: the lean resolver shows the gate what the tree shows it, for every service and a rotating sample of commands", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    const p = cliProvider({ configDir });
    const registry = await registryOf(contextFor(p, []));
    // Every service's first method and first shortcut name, and of the rest (~1,700 lines, each resolved by a
    // tree of its own: too many for every run) a daily rotating sample; TURNS_GATE_SEED replays a day's.
    const always: string[][] = [];
    const rest: string[][] = [];
    for (const s of registry.listServices()) {
      if (FIXED_NAMES.has(s.name)) continue;
      (await registry.methods(s.name)).forEach((m, i) =>
        (i === 0 ? always : rest).push([s.name, m.resource, m.name])
      );
    }
    const methodLines = always.length + rest.length;
    for (const service of Object.keys(SHORTCUT_SERVICES)) {
      const names = (await loadShortcuts(service)).flatMap((sc) => [sc.command, ...(sc.aliases ?? [])]);
      names.forEach((name, i) => (i === 0 ? always : rest).push([service, name]));
    }
    assert.ok(
      methodLines > 1000 && always.length + rest.length - methodLines > 300,
      "the sweep's space shrank",
    );
    const seed = daySeed("TURNS_GATE_SEED");
    let gated = 0;
    let methods = 0;
    for (const words of [...always, ...sampleOf(rest, 240, seed)]) {
      const label = `${words.join(" ")} (TURNS_GATE_SEED=${seed} to replay)`;
      const outcome = await compare(p, [...words, "--as", "bot", "--dry-run"], label);
      if (words.length === 3) {
        methods++;
        // A plain method line must take the lean path (the point of it) and agree with the tree; `event` mixes
        // registry methods with its own commands, so the tree always resolves it.
        if (words[0] !== "event") {
          assert.ok(outcome.gated, `${label}: a plain turn should be resolved without the tree`);
        }
      }
      if (outcome.gated) gated++;
    }
    assert.ok(gated >= methods, `${gated} lines were gated on the lean path`);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("turn gate: fixed commands, raw api and attack shapes are gated alike or left to the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-turns-gate-" });
  try {
    const p = cliProvider({ configDir });
    const lines: string[][] = [
      ...[...FIXED_NAMES].flatMap((name) => [[name], [name, "a", "b"], [name, "+x"]]),
      ["config", "set", "endpoint", "https://evil.example"],
      ["config", "show", "--as", "bot"],
      ["auth", "login", "--as", "user"],
      ["profile", "add", "x", "y"],
      ["app-server", "--listen", "stdio"],
      ["event", "stop", "x"],
      ["event", "list", "x"],
      ["registry", "refresh", "x"],
      ["schema", "calendar.calendars.list"],
      ["commands", "--format", "ndjson"],
      ["help", "calendar", "calendars", "list"],
      ["api", "GET", "/open-apis/calendar/v4/calendars"],
      ["api", "GET", "open-apis/calendar/v4/calendars", "--as", "bot"],
      ["api", "POST", "/open-apis/im/v1/messages", "--body", "{}", "--yes"],
      ["api", "GET", "/open-apis/../../auth/v3/x"],
      ["api", "GET", "https://open.feishu.cn/open-apis/im/v1/chats"],
      ["api", "GET", "//x/open-apis/drive/v1/files"],
      ["api", "GET", "/open-apis/%64rive/v1/files"],
      ["api", "GET", "/open-apis/calendar/v4/calendars", "--", "x"],
      ["api", "GET", "/open-apis/calendar/v4/calendars", "--replay=/tmp/x"],
      ["api", "--as", "bot", "GET", "/open-apis/calendar/v4/calendars"],
      ...attackShapes(["calendar", "calendars", "list"]),
      ...attackShapes(["calendar", "+agenda"]),
      ...attackShapes(["api", "GET", "/open-apis/calendar/v4/calendars"]),
      ["calendar", "calendars", "list", "--as", "bot", "--format=json", "--jq", ".data"],
      ["calendar", "calendars", "list", "--no-such-flag"],
      ["calendar", "calendars", "list", "--dry-run=yes"],
      ["calendar", "+agenda", "--no-such-flag"],
      ["calendar", "+nosuch"],
      ["calendar", "nosuch", "list"],
      ["calendar", "calendars", "nosuch"],
      ["calendar", "calendars", "list", "--profile", "other"],
      ["calendar", "calendars", "get", "--params={}", "--page-size", "1"],
      ["im", "messages", "create", "--as", "user", "--data", "{}", "--params", "{}"],
      ["im", "+messages-send", "--as", "bot", "--receive-id", "oc_x", "--text", "hi", "--dry-run"],
    ];
    let gated = 0;
    for (const argv of lines) if ((await compare(p, argv)).gated) gated++;
    // The api lines and the plain suite lines above are resolved lean; the test would prove nothing otherwise.
    assert.ok(gated >= 5, `${gated} of ${lines.length} lines were gated on the lean path`);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});
