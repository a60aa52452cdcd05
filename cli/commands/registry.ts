/**
 * `larkit registry refresh`: fetch newer API metadata (the remote overlay) now. Ordinary commands never touch
 * the network for it (an offline run would wait for the download to fail); this and `doctor` do.
 */
import type { Command } from "commander";
import { refreshRegistryOverlay } from "../api_commands/registry_of.ts";
import { refusedInTurns, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitSuccess } from "../output/emit.ts";
import { errors } from "../output/errors.ts";

export function registerRegistry(program: Command, ctx: RunContext): void {
  const registry = program.command("registry").description(
    "the API metadata the generated commands come from",
  );
  setMeta(registry, { layer: "builtin" });
  const refresh = registry.command("refresh")
    .description("download newer API metadata from the suite now (the cache serves later runs)")
    .action(async () => {
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
    });
  setMeta(refresh, { layer: "builtin", turn: refusedInTurns("rewrites the registry cache") });
}
