/**
 * Who can open a document: `+member-list`, `+member-add`, `+member-remove`, `+permission-get-setting`,
 * `+apply-permission` (user only), and secure labels (`+secure-label-list`, `+secure-label-update`, user only).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import { tokenOf } from "./common.ts";
import { resolveTarget, targetFlags } from "./target.ts";

const PERMS = "/open-apis/drive/v1/permissions";
const MEMBER_TYPES = [
  "openid",
  "userid",
  "unionid",
  "email",
  "openchat",
  "opendepartmentid",
  "groupid",
  "wikispaceid",
] as const;
const Member = z.looseObject({
  member_type: z.optional(z.string()),
  member_id: z.optional(z.string()),
  perm: z.optional(z.string()),
});

function memberIdOf(v: string): string {
  if (/[/?#\s]/.test(v)) throw errors.validation(`--member-id: ${v} is not an ID`);
  return v;
}

export const memberList = defineShortcut({
  service: "drive",
  command: "+member-list",
  description: "List who has access to a document, and with which permission",
  examples: ["larkit drive +member-list --token doxcnAbc --type docx --format table"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:permission.member:retrieve"], bot: ["docs:permission.member:retrieve"] },
  hasFormat: true,
  columns: ["member_type", "member_id", "perm"],
  flags: { ...targetFlags() },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const { items } = await ctx.api({
      method: "GET",
      path: `${PERMS}/${encodeURIComponent(token)}/members`,
      params: { type },
      response: z.object({ items: z._default(z.array(Member), []) }),
      planned: { items: [] },
    });
    await ctx.outFormat(
      items,
      { count: items.length },
      (d) =>
        (d as z.infer<typeof Member>[]).map((m) =>
          `${m.member_type ?? ""}  ${m.member_id ?? ""}  ${m.perm ?? ""}`
        ).join("\n") ||
        "no members",
    );
  },
});

export const memberAdd = defineShortcut({
  service: "drive",
  command: "+member-add",
  description: "Give a person, group or department access to a document",
  examples: [
    "larkit drive +member-add --token doxcnAbc --member-id ou_abc --member-type openid --perm edit --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:permission.member:create"], bot: ["docs:permission.member:create"] },
  hasFormat: false,
  flags: {
    ...targetFlags(),
    "member-id": flag.requiredString("who, as --member-type"),
    "member-type": flag.requiredChoice(MEMBER_TYPES, "what --member-id is"),
    perm: flag.choice(["view", "edit", "full_access"] as const, "the permission", { default: "view" }),
    "need-notification": flag.boolean("notify them"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const { token, type } = await resolveTarget(ctx, f.token, f.type);
    const { member } = await ctx.api({
      method: "POST",
      path: `${PERMS}/${encodeURIComponent(token)}/members`,
      params: { type, need_notification: f["need-notification"] },
      body: { member_type: f["member-type"], member_id: memberIdOf(f["member-id"]), perm: f.perm },
      response: z.object({ member: Member }),
      planned: { member: { member_id: f["member-id"], perm: f.perm } },
    });
    await ctx.out({ token, member });
  },
});

export const memberRemove = defineShortcut({
  service: "drive",
  command: "+member-remove",
  description: "Take away someone's access to a document",
  examples: ["larkit drive +member-remove --token doxcnAbc --member-id ou_abc --member-type openid --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:permission.member:delete"], bot: ["docs:permission.member:delete"] },
  hasFormat: false,
  flags: {
    ...targetFlags(),
    "member-id": flag.requiredString("who, as --member-type"),
    "member-type": flag.requiredChoice(MEMBER_TYPES, "what --member-id is"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const { token, type } = await resolveTarget(ctx, f.token, f.type);
    const id = memberIdOf(f["member-id"]);
    await ctx.api({
      method: "DELETE",
      path: `${PERMS}/${encodeURIComponent(token)}/members/${encodeURIComponent(id)}`,
      params: { type, member_type: f["member-type"] },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ token, member_id: id, removed: true });
  },
});

export const permissionGetSetting = defineShortcut({
  service: "drive",
  command: "+permission-get-setting",
  description: "Show a document's sharing settings (link sharing, external access, who may copy or comment)",
  examples: ["larkit drive +permission-get-setting --token doxcnAbc --type docx"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:permission.setting:read"], bot: ["docs:permission.setting:read"] },
  hasFormat: true,
  flags: { ...targetFlags() },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const answer = await ctx.api({
      method: "GET",
      path: `/open-apis/drive/v2/permissions/${encodeURIComponent(token)}/public`,
      params: { type },
      response: z.looseObject({ permission_public: z.optional(z.looseObject({})) }),
      planned: { permission_public: {} },
    });
    await ctx.outFormat(answer.permission_public ?? {});
  },
});

export const applyPermission = defineShortcut({
  service: "drive",
  command: "+apply-permission",
  description: "Ask a document's owner for access (user only: the request comes from you)",
  examples: ['larkit drive +apply-permission --token doxcnAbc --perm edit --remark "for the review"'],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["docs:permission.member:apply"] },
  hasFormat: false,
  flags: {
    ...targetFlags(),
    perm: flag.requiredChoice(["view", "edit"] as const, "the access you ask for"),
    remark: flag.string("a note to the owner"),
  },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    await ctx.api({
      method: "POST",
      path: `${PERMS}/${encodeURIComponent(token)}/members/apply`,
      params: { type },
      body: { perm: ctx.flags.perm, remark: ctx.flags.remark },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ token, requested: ctx.flags.perm });
  },
});

const Label = z.looseObject({ id: z.string(), name: z.optional(z.string()) });

export const secureLabelList = defineShortcut({
  service: "drive",
  command: "+secure-label-list",
  description: "List the secure labels you may apply (user only)",
  examples: ["larkit drive +secure-label-list --page-all"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["docs:secure_label:readonly"] },
  hasFormat: true,
  columns: ["name", "id"],
  flags: {
    lang: flag.string("label language, e.g. en_us"),
    ...pageFlags({ default: 20, max: 50, noun: "labels" }),
  },
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: "/open-apis/drive/v2/my_secure_labels",
      params: { lang: ctx.flags.lang },
      response: z.extend(PageInfo, { items: z._default(z.array(Label), []) }),
      planned: { items: [], has_more: false },
    });
    const labels = pages.flatMap((p) => p.items);
    await ctx.outFormat(
      labels,
      meta(labels.length),
      (d) => (d as z.infer<typeof Label>[]).map((l) => `${l.id}  ${l.name ?? ""}`).join("\n") || "no labels",
    );
  },
});

export const secureLabelUpdate = defineShortcut({
  service: "drive",
  command: "+secure-label-update",
  description: "Set a document's secure label (user only)",
  examples: ["larkit drive +secure-label-update --token doxcnAbc --type docx --label-id 7223012384519"],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["docs:secure_label:write_only"] },
  hasFormat: false,
  flags: { ...targetFlags(), "label-id": flag.requiredString("the label (see +secure-label-list)") },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const label = tokenOf(ctx.flags["label-id"], "label-id");
    await ctx.api({
      method: "PATCH",
      path: `/open-apis/drive/v2/files/${encodeURIComponent(token)}/secure_label`,
      params: { type },
      body: { id: label },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ token, label_id: label });
  },
});
