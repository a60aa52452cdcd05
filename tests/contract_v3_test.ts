/**
 * The output contract, third round (issue 34): reads are never "outcome unknown", impossible dates are refused,
 * interrupted writes keep their key, the catalogue says what is required, and the smaller promises of the
 * README's contract section. In-process through `runCli` against the emulator; what needs a process (signals,
 * a closed stdout) is in `interrupts_test.ts`.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const PRIMARY = "/open-apis/calendar/v4/calendars/primary";
const DAY = ["--start", "2026-11-23", "--end", "2026-11-23"];

Deno.test("a read spelt as POST (the primary calendar) is retried after a lost answer or a 5xx, never outcome_unknown", async () => {
  await withSuite(async (emu, larkit) => {
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "after-handling" });
    const lost = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY]);
    assert.equal(lost.code, 0, lost.stderr);
    assert.equal(suiteCalls(emu).filter((c) => c.path === PRIMARY).length, 2, "the lookup was sent again");

    emu.clearRequests();
    emu.faults.serverError({ path: PRIMARY, times: 1, status: 500 });
    const failed = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY]);
    assert.equal(failed.code, 0, failed.stderr);

    // A write shortcut's lookup is a read too: only the write itself is the write.
    emu.clearRequests();
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "before-handling" });
    const create = await larkit([
      "calendar",
      "+create",
      "--as",
      "bot",
      "--summary",
      "lookup retried",
      "--start",
      "2026-11-24T10:00:00Z",
      "--end",
      "2026-11-24T11:00:00Z",
    ]);
    assert.equal(create.code, 0, create.stderr);

    // The generated method: the registry says it reads.
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "after-handling" });
    const method = await larkit(["calendar", "calendars", "primary"]);
    assert.equal(method.code, 0, method.stderr);
  });
});
