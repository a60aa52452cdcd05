/**
 * The service list declares what a run needs of a service without loading its shortcuts (start-up): these
 * checks keep those declarations equal to the shortcuts themselves.
 */
import assert from "node:assert/strict";
import { SHORTCUT_SERVICES } from "./index.ts";

for (const [service, declared] of Object.entries(SHORTCUT_SERVICES)) {
  Deno.test(`shortcuts/${service}: its list holds its own shortcuts, with the declared identities`, async () => {
    const shortcuts = await declared.load();
    assert.ok(shortcuts.length > 0, `shortcuts/${service}/index.ts lists no shortcut`);
    assert.deepEqual(shortcuts.filter((s) => s.service !== service).map((s) => s.command), []);
    const identities = [...new Set(shortcuts.flatMap((s) => s.authTypes))];
    assert.deepEqual(
      declared.identities,
      identities,
      `set identities: ${JSON.stringify(identities)} for ${service} in shortcuts/index.ts`,
    );
    const commands = shortcuts.map((s) => s.command);
    assert.deepEqual(commands, [...new Set(commands)], "a command name is listed twice");
  });
}
