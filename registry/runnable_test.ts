import assert from "node:assert/strict";
import { runnableResources, runnableSpec } from "./runnable.ts";

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

Deno.test("each resource is written as its own runnable service, with the service's fields", () => {
  const spec = {
    name: "calendar",
    servicePath: "/open-apis/calendar/v4",
    description: "Calendar (v4)",
    resources: {
      events: { methods: { get: { description: "Get an event", path: "events/:id" } } },
      "event.attendees": { methods: { list: { path: "events/:id/attendees" } } },
    },
  };
  assert.deepEqual(runnableResources(spec), {
    events: {
      name: "calendar",
      servicePath: "/open-apis/calendar/v4",
      resources: { events: { methods: { get: { path: "events/:id" } } } },
    },
    "event.attendees": {
      name: "calendar",
      servicePath: "/open-apis/calendar/v4",
      resources: { "event.attendees": { methods: { list: { path: "events/:id/attendees" } } } },
    },
  });
});
