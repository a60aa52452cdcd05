/**
 * What a larkit run needs in its environment to talk to an emulator as its seeded app. Its own module so that
 * tests and benches get it without loading the `sandbox` command (and every fixed command module it would load).
 */
import type { Emulator } from "./server.ts";

export function sandboxEnv(emu: Emulator): Record<string, string> {
  return {
    LARKIT_BRAND: "custom",
    LARKIT_BASE_URL: emu.url,
    LARKIT_APP_ID: emu.app.appId,
    LARKIT_APP_SECRET: emu.app.appSecret,
  };
}
