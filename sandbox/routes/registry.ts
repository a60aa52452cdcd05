/**
 * The remote registry metadata (`/api/tools/open/api_definition?protocol=meta`), unauthenticated as on the
 * suite. Tests set the overlay it serves with `emulator.setOverlay`; "corrupt" sends a body that is not JSON.
 * A `data_version` equal to the overlay's version answers `services: null` ("not modified").
 */
import { json } from "../reply.ts";
import type { Route } from "../router.ts";

const EMPTY_OVERLAY = { version: "0.0.0", services: [] };

export const registryRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/tools/open/api_definition",
    auth: "none",
    handle(ctx) {
      const overlay = ctx.st.overlay ?? EMPTY_OVERLAY;
      if (overlay === "corrupt") {
        return {
          kind: "raw",
          status: 200,
          body: '{"msg":"succeeded","data":{"version":',
          headers: { "content-type": "application/json" },
        };
      }
      const version = (overlay as { version?: unknown }).version;
      const known = ctx.query.get("data_version");
      const data = known !== null && known === version ? { version, services: null } : overlay;
      return json({ msg: "succeeded", data });
    },
  },
];
