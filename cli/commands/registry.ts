/**
 * `larkit registry refresh`: fetch newer API metadata (the remote overlay) now. Ordinary commands never touch
 * the network for it (an offline run would wait for the download to fail); this and `doctor` do.
 */
import { refreshRegistryOverlay } from "../api_commands/registry_of.ts";
import { refusedInTurns } from "../command_meta.ts";
import { emitSuccess } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";

const refresh = defineCommand({
  words: ["registry", "refresh"],
  description: "download newer API metadata from the suite now (the cache serves later runs)",
  flags: {},
  turn: refusedInTurns("rewrites the registry cache"),
  async action(ctx) {
    const result = await refreshRegistryOverlay(ctx, { force: true });
    if (result === "off") {
      throw errors.validation("remote metadata is off (--offline or LARKIT_REMOTE_META=off)", {
        hint: "run it without --offline and with LARKIT_REMOTE_META unset",
      });
    }
    if (result === "not-configured") {
      throw errors.config("not configured: no brand, so no suite to ask for metadata", {
        hint: "run larkit config init --app-id <id> --app-secret-stdin",
      });
    }
    if (result === "failed") {
      throw errors.network("the registry overlay could not be downloaded (see the warning above)", {
        hint: "check the network and retry: larkit registry refresh",
      });
    }
    await emitSuccess(ctx, { data: { result } });
  },
});

export const registryCommands: CommandModule = {
  groups: [{ words: ["registry"], description: "the API metadata the generated commands come from" }],
  commands: [refresh],
};
