/**
 * The remote registry metadata (`/api/tools/open/api_definition?protocol=meta`), unauthenticated as on the
 * suite. Tests set the overlay it serves with `emulator.setOverlay`; "corrupt" sends a body that is not JSON.
 * A `data_version` equal to the overlay's version answers `services: null` ("not modified").
 * Beside it the recommended-scopes document (`/api/tools/open/scopes.json`, the reference CLI's
 * `scope_priorities.json` shape); tests replace it with `emulator.setScopeDocument`.
 */
import { json } from "../reply.ts";
import type { Route } from "../router.ts";

const EMPTY_OVERLAY = { version: "0.0.0", services: [] };

/** A few calendar scopes recommended, one (deleting events) not: a login follows whichever it was given. */
export const SCOPE_DOCUMENT_FIXTURE = [
  { scope_name: "calendar:calendar.event:read", final_score: "52.42", recommend: "true" },
  { scope_name: "calendar:calendar.free_busy:read", final_score: "48.10", recommend: "true" },
  { scope_name: "calendar:calendar.event:reply", final_score: "40.00", recommend: "true" },
  { scope_name: "calendar:calendar.event:delete", final_score: "12.50", recommend: "false" },
];

const CORRUPT = {
  kind: "raw" as const,
  status: 200,
  body: '{"msg":"succeeded","data":{"version":',
  headers: { "content-type": "application/json" },
};

export const registryRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/tools/open/api_definition",
    auth: "none",
    handle(ctx) {
      const overlay = ctx.st.overlay ?? EMPTY_OVERLAY;
      if (overlay === "corrupt") return CORRUPT;
      const version = (overlay as { version?: unknown }).version;
      const known = ctx.query.get("data_version");
      const data = known !== null && known === version ? { version, services: null } : overlay;
      return json({ msg: "succeeded", data });
    },
  },
  {
    method: "GET",
    path: "/api/tools/open/scopes.json",
    auth: "none",
    handle(ctx) {
      const doc = ctx.st.scopeDocument ?? SCOPE_DOCUMENT_FIXTURE;
      return doc === "corrupt" ? CORRUPT : json(doc);
    },
  },
];
