/** `wiki +member-list`, `+member-add`, `+member-remove`: who can see or edit a space. */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import { resolveSpace, WIKI } from "./common.ts";

const MEMBER_TYPES = ["openid", "userid", "unionid", "openchat", "opendepartmentid", "email"] as const;
const ROLES = ["member", "admin"] as const;
const Member = z.looseObject({
  member_id: z.string(),
  member_type: z.optional(z.string()),
  member_role: z.optional(z.string()),
});

function membersText(data: unknown): string {
  const members = data as z.infer<typeof Member>[];
  if (!members.length) return "no members";
  return members.map((m) => `${m.member_id}  ${m.member_type ?? ""}  ${m.member_role ?? ""}`).join("\n");
}

const memberFlags = {
  "space-id": flag.requiredString("space id (my_library: your personal library)"),
  "member-id": flag.requiredString("the member's id, of --member-type"),
  "member-type": flag.requiredChoice(MEMBER_TYPES, "what --member-id is"),
  "member-role": flag.requiredChoice(ROLES, "the role"),
};

export const memberList = defineShortcut({
  service: "wiki",
  command: "+member-list",
  description: "List the members and admins of a wiki space",
  examples: ["larkit wiki +member-list --space-id 7034502641455497244 --format table"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:member:retrieve"], bot: ["wiki:member:retrieve"] },
  hasFormat: true,
  columns: ["member_id", "member_type", "member_role"],
  flags: {
    "space-id": flag.requiredString("space id (my_library: your personal library)"),
    ...pageFlags({ default: 20, max: 50, noun: "members" }),
  },
  async run(ctx) {
    const space = await resolveSpace(ctx, ctx.flags["space-id"]);
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/members`,
      response: z.extend(PageInfo, { members: z._default(z.array(Member), []) }),
      planned: { members: [], has_more: false },
    });
    const members = pages.flatMap((p) => p.members);
    await ctx.outFormat(members, meta(members.length), membersText);
  },
});

export const memberAdd = defineShortcut({
  service: "wiki",
  command: "+member-add",
  description: "Add a person, group or department to a wiki space as member or admin",
  examples: [
    "larkit wiki +member-add --space-id 7034502641455497244 --member-id ou_abc --member-type openid --member-role member",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:member:create"], bot: ["wiki:member:create"] },
  hasFormat: false,
  flags: { ...memberFlags, "need-notification": flag.boolean("notify the new member") },
  async run(ctx) {
    const f = ctx.flags;
    const space = await resolveSpace(ctx, f["space-id"]);
    const { member } = await ctx.api({
      method: "POST",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/members`,
      params: { need_notification: f["need-notification"] || undefined },
      body: { member_type: f["member-type"], member_id: f["member-id"], member_role: f["member-role"] },
      response: z.object({ member: Member }),
      planned: { member: { member_id: f["member-id"], member_role: f["member-role"] } },
    });
    await ctx.out({ space_id: space, member });
  },
});

export const memberRemove = defineShortcut({
  service: "wiki",
  command: "+member-remove",
  description: "Remove a member or admin from a wiki space",
  examples: [
    "larkit wiki +member-remove --space-id 7034502641455497244 --member-id ou_abc --member-type openid --member-role member",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:member:update"], bot: ["wiki:member:update"] },
  hasFormat: false,
  flags: memberFlags,
  async run(ctx) {
    const f = ctx.flags;
    const space = await resolveSpace(ctx, f["space-id"]);
    // An email is a valid member id here, so only path separators are refused.
    const id = f["member-id"];
    if (/[/?#\s]/.test(id)) throw errors.validation(`--member-id: ${id} is not an ID`);
    await ctx.api({
      method: "DELETE",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/members/${encodeURIComponent(id)}`,
      body: { member_type: f["member-type"], member_role: f["member-role"] },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ space_id: space, member_id: id, removed: true });
  },
});
