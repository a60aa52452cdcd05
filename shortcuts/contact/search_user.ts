/**
 * `contact +search-user`: people whose name or email matches a keyword, as the logged-in user sees them
 * (the suite's user search is user-only). One page, or every page with `--page-all`; `meta.page_token`
 * fetches the next.
 */
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag } from "../declare.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";

const SEARCH = "/open-apis/search/v1/user";

const Page = z.extend(PageInfo, {
  users: z.nullish(z.array(z.looseObject({ open_id: z.string(), name: z.string() }))),
});

function usersText(data: unknown): string {
  const users = data as Record<string, unknown>[];
  if (users.length === 0) return "No users found.\n";
  return renderTable(users.map((u) => ({ name: u.name, open_id: u.open_id, user_id: u.user_id ?? "" })));
}

export const searchUser = defineShortcut({
  service: "contact",
  command: "+search-user",
  description: "Search people by name or email (user identity only)",
  examples: [
    'larkit contact +search-user --query "bob"',
    "larkit contact +search-user --query alice --jq '.data[0].open_id'",
    "larkit contact +search-user --query example.com --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["search:user"] },
  hasFormat: true,
  columns: ["name", "open_id", "user_id"],
  flags: {
    query: flag.requiredString("keyword: part of a name or email"),
    ...pageFlags({ default: 20, max: 200, noun: "users" }),
  },
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: SEARCH,
      params: { query: ctx.flags.query },
      response: Page,
      planned: { users: [], has_more: false },
    });
    const users = pages.flatMap((p) => p.users ?? []);
    await ctx.outFormat(users, meta(users.length), usersText);
  },
});
