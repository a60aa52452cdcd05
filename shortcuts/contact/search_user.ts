/**
 * `contact +search-user`: people whose name or email matches a keyword, as the logged-in user sees them
 * (the suite's user search is user-only). One page; `meta.page_token` fetches the next.
 */
import { z } from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";

const SEARCH = "/open-apis/search/v1/user";

const flags = {
  query: flag.requiredString("keyword: part of a name or email"),
  "page-size": flag.integer("users per page (1-200)", { default: 20, min: 1, max: 200 }),
  "page-token": flag.string("page token from the previous page's meta.page_token"),
};

function query(f: FlagValues<typeof flags>) {
  return { query: f.query, page_size: f["page-size"], page_token: f["page-token"] };
}

const Page = z.object({
  users: z.array(z.looseObject({ open_id: z.string(), name: z.string() })).nullish(),
  has_more: z.boolean().default(false),
  page_token: z.string().optional(),
});

function usersText(data: unknown): string {
  const users = data as Record<string, unknown>[];
  if (users.length === 0) return "No users found.\n";
  return renderTable(users.map((u) => ({ name: u.name, open_id: u.open_id, user_id: u.user_id ?? "" })));
}

export const searchUser = defineShortcut({
  service: "contact",
  command: "+search-user",
  description: "Search people by name or email",
  examples: [
    'larkit contact +search-user --query "bob"',
    "larkit contact +search-user --query alice --jq '.data[0].open_id'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["search:user"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    const page = await ctx.api({
      method: "GET",
      path: SEARCH,
      params: query(ctx.flags),
      response: Page,
      planned: { users: [], has_more: false },
    });
    const users = page.users ?? [];
    await ctx.outFormat(users, {
      count: users.length,
      has_more: page.has_more,
      ...(page.has_more && page.page_token ? { page_token: page.page_token } : {}),
    }, usersText);
  },
});
