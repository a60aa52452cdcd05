/**
 * The vc meeting-bot and meeting-search bodies held to what the suite takes (join by `join_type` +
 * `join_identify.meeting_no`, a message's `content`, search filters inside `meeting_filter`), refusing any other
 * field; a body that passes is then answered by the generic handler, as every vc method is.
 */
import * as z from "zod";
import type { FoundMethod } from "../generic.ts";
import type { Reply } from "../reply.ts";
import type { RequestCtx, Route } from "../router.ts";
import { strictBody, strictQuery } from "./strict_body.ts";

/** Loaded as the server loads it: a non-literal specifier, embedded by `deno task compile`'s `--include`. */
const GENERIC = "../generic.ts";
let genericModule: Promise<typeof import("../generic.ts")> | undefined;

async function generically(ctx: RequestCtx): Promise<Reply> {
  const g = await (genericModule ??= import(GENERIC));
  const { found } = await g.findApiMethod(ctx.req.method, ctx.url.pathname);
  return await g.genericHandle({ ...ctx, params: (found as FoundMethod).params }, found as FoundMethod);
}

const RFC3339 = z.string().check(z.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/));
const Ids = z.optional(z.array(z.string()));

const BODIES: [string, z.ZodMiniType, z.ZodMiniType | undefined][] = [
  [
    "/open-apis/vc/v1/bots/join",
    z.strictObject({
      // 1 = by meeting number, the only kind the suite supports (2-100 are reserved).
      join_type: z.literal(1),
      join_identify: z.strictObject({ meeting_no: z.string().check(z.regex(/^\d{9}$/)) }),
      password: z.optional(z.string()),
      call_id: z.optional(z.string()),
    }),
    undefined,
  ],
  [
    "/open-apis/vc/v1/bots/message",
    z.strictObject({
      meeting_id: z.string().check(z.minLength(1)),
      msg_type: z.enum(["text", "reaction"]),
      content: z.string().check(z.minLength(1)),
      uuid: z.optional(z.string()),
    }),
    undefined,
  ],
  [
    "/open-apis/vc/v1/meetings/search",
    z.strictObject({
      query: z.optional(z.string().check(z.minLength(1), z.maxLength(50))),
      meeting_filter: z.optional(z.strictObject({
        organizer_ids: Ids,
        participant_ids: Ids,
        open_room_ids: Ids,
        start_time: z.optional(
          z.strictObject({ start_time: z.optional(RFC3339), end_time: z.optional(RFC3339) }),
        ),
      })),
    }),
    z.strictObject({ page_size: z.optional(z.string()), page_token: z.optional(z.string()) }),
  ],
];

export const vcRoutes: Route[] = BODIES.map(([path, body, query]): Route => ({
  method: "POST",
  path,
  auth: "token",
  scopes: path.endsWith("/search")
    ? ["vc:meeting.search:read"]
    : [path.endsWith("/join") ? "vc:meeting.bot.join:write" : "vc:meeting.message:write"],
  ...(path.endsWith("/search") ? { identities: ["user" as const] } : {}),
  async handle(ctx) {
    strictBody(ctx, body);
    if (query) strictQuery(ctx, query);
    return await generically(ctx);
  },
}));
