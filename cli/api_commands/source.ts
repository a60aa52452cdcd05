/**
 * Generated API commands: `larkit <service> <resource> <method>`, one per registry method. Only the service
 * named on the command line is built (`register`); `list` gives every service's summary for help/completion.
 */
import { methodHelp } from "./method_help.ts";
import { Command } from "commander";
import { setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import type { ServiceSource } from "../service_source.ts";
import type { ApiMethod } from "../../registry/index.ts";
import { apiCallOf, apiFlagSetOf } from "./call.ts";
import { enumParamValues } from "./param_values.ts";
import { lazy } from "../lazy.ts";
import { addApiFlags } from "./flags.ts";
import { registryOf } from "./registry_of.ts";

export function methodCommand(ctx: RunContext, m: ApiMethod, siblings: ApiMethod[] = []): Command {
  const cmd = new Command(m.name)
    .summary(m.summary)
    .description(`${m.description}\n\nView parameter definitions before calling:\n  larkit schema ${m.id}`);
  const flags = addApiFlags(cmd, apiFlagSetOf(m));
  // Built apart from the tree, so it does not inherit the root's help settings: the global flags too.
  cmd.configureHelp({ showGlobalOptions: true }).addHelpText("after", methodHelp(m));
  cmd.action(async (opts: Record<string, unknown>) => {
    // Loaded when a generated command runs, not for every service a run builds.
    const { runApiCall } = await lazy("cli/api_commands/execute.ts");
    await runApiCall(ctx, apiCallOf(ctx, m, siblings), opts);
  });
  setMeta(cmd, {
    layer: "api",
    identities: m.identities,
    risk: m.risk,
    scopes: Object.fromEntries(m.identities.map((i) => [i, m.scopes])),
    dryRun: true,
    pagination: Object.hasOwn(m.parameters, "page_token"),
    flags,
    values: (flag) => flag === "params" ? enumParamValues(m) : [],
  });
  return cmd;
}

export const registrySource: ServiceSource = {
  async list(ctx) {
    return (await registryOf(ctx)).listServices().map((s) => ({
      name: s.name,
      description: s.description,
      identities: s.identities,
    }));
  },
  async register(serviceCmd, service, ctx) {
    const methods = await (await registryOf(ctx)).methods(service);
    const resources = new Map<string, { cmd: Command; identities: Set<string> }>();
    for (const m of methods) {
      let resource = resources.get(m.resource);
      if (!resource) {
        resource = {
          cmd: serviceCmd.command(m.resource).description(`${m.resource} operations`),
          identities: new Set(),
        };
        resources.set(m.resource, resource);
      }
      resource.cmd.addCommand(methodCommand(ctx, m, methods));
      for (const i of m.identities) resource.identities.add(i);
    }
    for (const { cmd, identities } of resources.values()) {
      setMeta(cmd, { layer: "api", identities: [...identities].sort() as ("user" | "bot")[] });
    }
  },
};
