import assert from "node:assert/strict";
import { runnableSpec } from "./runnable.ts";

Deno.test("a runnable spec drops description text only, not a field named description", () => {
  const spec = {
    description: "Calendar (v4)",
    descriptionZh: "日历",
    resources: {
      events: {
        methods: {
          create: {
            description: "Create an event",
            path: "calendars/:calendar_id/events",
            requestBody: { description: { type: "string", description: "The event's description" } },
            tips: ["a tip"],
          },
        },
      },
    },
  };
  assert.deepEqual(runnableSpec(spec), {
    resources: {
      events: {
        methods: {
          create: {
            path: "calendars/:calendar_id/events",
            requestBody: { description: { type: "string" } },
            tips: ["a tip"],
          },
        },
      },
    },
  });
});
