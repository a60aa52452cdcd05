/**
 * `contact +get-user`: one person's profile -- yourself when no `--user-id` is given (user identity), else the
 * person with that ID (open_id by default): as the bot, the full profile (`users/:id`); as the user, the basic
 * profile (`users/basic_batch`), which is what the user scope it declares allows, as the reference does.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";

const Profile = z.looseObject({ open_id: z.optional(z.string()), name: z.optional(z.string()) });
const Basic = z.looseObject({ user_id: z.optional(z.string()), name: z.optional(z.string()) });

export const getUser = defineShortcut({
  service: "contact",
  command: "+get-user",
  description: "Get a person's profile (yourself when --user-id is omitted)",
  examples: [
    "larkit contact +get-user",
    "larkit contact +get-user --user-id ou_123 --as bot",
    "larkit contact +get-user --user-id ou_123 --as user",
    "larkit contact +get-user --user-id 5d9a1c --user-id-type user_id --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["contact:user.basic_profile:readonly"],
    bot: ["contact:user.base:readonly", "contact:contact.base:readonly"],
  },
  hasFormat: true,
  flags: {
    "user-id": flag.string("the person's ID (default: yourself, as the user)"),
    "user-id-type": flag.choice(["open_id", "union_id", "user_id"] as const, "ID type of --user-id", {
      default: "open_id",
    }),
  },
  async run(ctx) {
    const id = ctx.flags["user-id"];
    if (id === undefined) {
      if (ctx.identity !== "user") {
        throw errors.validation("a bot has no profile of its own: give --user-id", {
          hint: "e.g. larkit contact +get-user --user-id ou_\u2026 --as bot",
        });
      }
      const me = await ctx.api({
        method: "GET",
        path: "/open-apis/authen/v1/user_info",
        response: Profile,
        planned: { open_id: "<open_id>" },
      });
      return await ctx.outFormat(me);
    }
    if (ctx.flags["user-id-type"] === "open_id" && !id.startsWith("ou_")) {
      throw errors.validation(
        `--user-id must be an open_id (ou_\u2026) with --user-id-type open_id, got "${id}"`,
      );
    }
    if (ctx.identity === "user") {
      const { users } = await ctx.api({
        method: "POST",
        path: "/open-apis/contact/v3/users/basic_batch",
        params: { user_id_type: ctx.flags["user-id-type"] },
        body: { user_ids: [id] },
        response: z.object({ users: z._default(z.array(Basic), []) }),
        planned: { users: [{ user_id: id, name: "<name>" }] },
      });
      if (!users[0]) throw errors.notFound(`no user ${id}`);
      return await ctx.outFormat(users[0]);
    }
    const { user } = await ctx.api({
      method: "GET",
      path: `/open-apis/contact/v3/users/${encodeURIComponent(id)}`,
      params: { user_id_type: ctx.flags["user-id-type"] },
      response: z.object({ user: Profile }),
      planned: { user: { open_id: "<open_id>" } },
    });
    await ctx.outFormat(user);
  },
});
