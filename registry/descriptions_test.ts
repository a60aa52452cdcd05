import assert from "node:assert/strict";
import { splitDescriptions, withDescriptions } from "./descriptions.ts";

Deno.test("description text splits off and goes back, a field named description included", () => {
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
  const { structure, text } = splitDescriptions(structuredClone(spec));
  assert.deepEqual(structure, {
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
  assert.equal(JSON.stringify(text).includes("calendars/"), false);
  assert.deepEqual(withDescriptions(structure, text), spec);
});
