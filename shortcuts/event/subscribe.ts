/**
 * `event +subscribe`: the reference CLI's short form of receiving events -- comma-separated `--event-types`
 * (none: every event) streamed as NDJSON. It is `larkit event consume` under the pipeline's identity, config,
 * scope and dry-run steps: the run is handed to that command, which holds no request of its own to plan.
 */
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";

const flags = {
  "event-types": flag.string("comma-separated event keys, e.g. im.message.receive_v1 (default: every event)"),
  "output-dir": flag.string("write each event to <dir>/<event_id>.json instead of stdout"),
  filter: flag.string("regular expression the event type must match, e.g. '^im\\.message'"),
  "max-events": flag.string("stop after this many events"),
  timeout: flag.string("stop after this long (30s, 500ms, 2m); no event by then is exit 4"),
  quiet: flag.boolean("no [event] status lines on stderr"),
};

export const subscribe = defineShortcut({
  service: "event",
  command: "+subscribe",
  description: "Subscribe to the suite's events over the app's long connection (NDJSON output)",
  examples: [
    "larkit event +subscribe --event-types im.message.receive_v1",
    "larkit event +subscribe --event-types im.message.receive_v1 --max-events 1 --jq .event.message.content",
  ],
  risk: "read",
  authTypes: ["bot"],
  scopes: { bot: [] },
  hasFormat: false,
  flags,
  async run(ctx) {
    const f = ctx.flags;
    const keys = (f["event-types"] ?? "").split(",").map((k) => k.trim()).filter(Boolean);
    if (f["max-events"] !== undefined && !/^[1-9]\d*$/.test(f["max-events"])) {
      throw errors.validation(`--max-events must be a positive integer, got "${f["max-events"]}"`);
    }
    ctx.note({ event_types: keys.length > 0 ? keys : "every event" });
    await ctx.delegate([
      "event",
      "consume",
      ...keys,
      ...(f["output-dir"] !== undefined ? ["--output-dir", f["output-dir"]] : []),
      ...(f.filter !== undefined ? ["--filter", f.filter] : []),
      ...(f["max-events"] !== undefined ? ["--max-events", f["max-events"]] : []),
      ...(f.timeout !== undefined ? ["--timeout", f.timeout] : []),
      ...(f.quiet ? ["--quiet"] : []),
    ]);
  },
});
