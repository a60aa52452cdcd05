/**
 * Contact v3 (ids by email/mobile, user by id, users of a department) and the user search. The big department
 * (`BIG_DEPARTMENT`, over 10,000 members) is generated on the fly from the page offset, so start-up stays fast
 * while `--page-all` has a long walk to make.
 */
import * as z from "zod";
import { all, one } from "../db.ts";
import { BIG_DEPARTMENT, DEPARTMENTS_COLLECTION, TENANT_KEY } from "../fixtures.ts";
import { pageBody, pageOf, paginate } from "../paging.ts";
import { ok, raise } from "../reply.ts";
import { jsonBody, type Route } from "../router.ts";
import { CONTACT_ID, CONTACT_PROFILE, CONTACT_READ, USER_SEARCH } from "../scopes.ts";
import { strictBody, strictQuery } from "./strict_body.ts";
import type { EmulatorState } from "../state.ts";

interface UserRow {
  open_id: string;
  union_id: string;
  user_id: string;
  name: string;
  en_name: string;
  email: string;
  mobile: string;
  department_id: string;
  job_title: string;
}

function avatar(openId: string) {
  const base = `https://sandbox.invalid/avatar/${openId}`;
  return {
    avatar_72: `${base}_72.png`,
    avatar_240: `${base}_240.png`,
    avatar_640: `${base}_640.png`,
    avatar_origin: `${base}.png`,
  };
}

function userJson(u: UserRow) {
  return {
    open_id: u.open_id,
    union_id: u.union_id,
    user_id: u.user_id,
    name: u.name,
    en_name: u.en_name,
    email: u.email,
    mobile: u.mobile,
    department_ids: [u.department_id],
    job_title: u.job_title,
    avatar: avatar(u.open_id),
    status: { is_frozen: false, is_resigned: false, is_activated: true, is_exited: false, is_unjoin: false },
    tenant_key: TENANT_KEY,
  };
}

/** Member `i` of the big department: stable, unique ids and names. */
export function bigMember(i: number): UserRow {
  const hex = i.toString(16).padStart(26, "0");
  return {
    open_id: `ou_b1${hex}`,
    union_id: `on_b1${hex}`,
    user_id: `big${i}`,
    name: `Member ${i + 1}`,
    en_name: `Member ${i + 1}`,
    email: `member${i + 1}@big.sandbox.example`,
    mobile: "",
    department_id: BIG_DEPARTMENT.id,
    job_title: "Staff",
  };
}

const USERS_PATH = "/open-apis/contact/v3/users";

/** The departments `department.get` answers (seeded into the generic store). */
function departments(st: EmulatorState): Record<string, unknown>[] {
  return all<{ body: string }>(
    st.db,
    "SELECT body FROM generic_objects WHERE collection = ? AND deleted = 0 ORDER BY seq",
    DEPARTMENTS_COLLECTION,
  ).map((r) => JSON.parse(r.body));
}

/** The users column an id of `user_id_type` is in (open_id by default). */
function idColumn(type: string | null): string {
  return ({ user_id: "user_id", union_id: "union_id" } as Record<string, string>)[type ?? ""] ?? "open_id";
}

export const contactRoutes: Route[] = [
  {
    // Users' basic profiles (id, name), the user identity's way to read another person.
    method: "POST",
    path: `${USERS_PATH}/basic_batch`,
    auth: "token",
    scopes: CONTACT_PROFILE,
    handle(ctx) {
      const { user_id_type } = strictQuery(
        ctx,
        z.strictObject({ user_id_type: z.optional(z.enum(["open_id", "union_id", "user_id"])) }),
      );
      const { user_ids } = strictBody(
        ctx,
        z.strictObject({ user_ids: z.array(z.string()).check(z.minLength(1), z.maxLength(10)) }),
      );
      const column = user_id_type ?? "open_id";
      const users = user_ids.flatMap((id) => {
        const u = one<UserRow>(ctx.st.db, `SELECT * FROM users WHERE ${column} = ?`, id);
        return u ? [{ user_id: id, name: u.name, i18n_name: { en_us: u.en_name } }] : [];
      });
      return ok({ users });
    },
  },
  {
    method: "POST",
    path: `${USERS_PATH}/batch_get_id`,
    auth: "token",
    scopes: CONTACT_ID,
    handle(ctx) {
      const body = jsonBody(
        ctx,
        z.object({
          emails: z._default(z.array(z.string()).check(z.maxLength(50)), []),
          mobiles: z._default(z.array(z.string()).check(z.maxLength(50)), []),
        }),
      );
      const user_list = [
        ...body.emails.map((email) => {
          const u = one<UserRow>(ctx.st.db, "SELECT * FROM users WHERE email = ?", email);
          return u ? { user_id: u.open_id, email } : { email };
        }),
        ...body.mobiles.map((mobile) => {
          const u = one<UserRow>(ctx.st.db, "SELECT * FROM users WHERE mobile = ?", mobile);
          return u ? { user_id: u.open_id, mobile } : { mobile };
        }),
      ];
      return ok({ user_list });
    },
  },
  {
    method: "GET",
    path: `${USERS_PATH}/find_by_department`,
    auth: "token",
    scopes: CONTACT_READ,
    handle(ctx) {
      const dept = ctx.query.get("department_id") ??
        raise(400, 99992402, "field validation failed: department_id is required");
      const page = pageOf(ctx.query, { size: 10, max: 50 });
      if (dept === BIG_DEPARTMENT.id) {
        const end = Math.min(page.offset + page.size, BIG_DEPARTMENT.size);
        const items = [];
        for (let i = page.offset; i < end; i++) items.push(userJson(bigMember(i)));
        return ok(pageBody(items, page, BIG_DEPARTMENT.size));
      }
      const rows = all<UserRow>(
        ctx.st.db,
        "SELECT * FROM users WHERE department_id = ? ORDER BY open_id",
        dept,
      );
      // The departments `department.get` answers (the root "0" among them), whether or not people are in it.
      const known = departments(ctx.st).some((d) => d.department_id === dept);
      if (rows.length === 0 && !known) raise(400, 40011, `department not found: ${dept}`);
      return ok(paginate(rows.map(userJson), page));
    },
  },
  {
    // A literal path before the parameter route below, which would take `batch` for a user id.
    method: "GET",
    path: `${USERS_PATH}/batch`,
    auth: "token",
    scopes: CONTACT_READ,
    handle(ctx) {
      const column = idColumn(ctx.query.get("user_id_type"));
      const ids = ctx.query.getAll("user_ids").flatMap((v) => v.split(",")).filter(Boolean);
      if (!ids.length) raise(400, 99992402, "field validation failed: user_ids is required");
      if (ids.length > 50) raise(400, 99992402, "field validation failed: user_ids: at most 50");
      // Ids that name nobody are left out, as the suite does.
      const items = ids.flatMap((id) => {
        const u = one<UserRow>(ctx.st.db, `SELECT * FROM users WHERE ${column} = ?`, id);
        return u ? [userJson(u)] : [];
      });
      return ok({ items });
    },
  },
  {
    method: "GET",
    path: `${USERS_PATH}/:user_id`,
    auth: "token",
    scopes: CONTACT_READ,
    handle(ctx) {
      const column = idColumn(ctx.query.get("user_id_type"));
      const u = one<UserRow>(ctx.st.db, `SELECT * FROM users WHERE ${column} = ?`, ctx.params.user_id) ??
        raise(400, 41050, `no user authority error: user ${ctx.params.user_id} not found`);
      return ok({ user: userJson(u) });
    },
  },
  {
    // A department's sub-departments (all levels with fetch_child=true), from the departments the tenant has.
    method: "GET",
    path: "/open-apis/contact/v3/departments/:department_id/children",
    auth: "token",
    scopes: CONTACT_READ,
    handle(ctx) {
      const known = departments(ctx.st);
      const id = ctx.params.department_id;
      if (!known.some((d) => d.department_id === id)) raise(400, 40011, `department not found: ${id}`);
      const deep = ctx.query.get("fetch_child") === "true";
      const under = (parent: string): Record<string, unknown>[] =>
        known.filter((d) => d.parent_department_id === parent)
          .flatMap((d) => [d, ...(deep ? under(String(d.department_id)) : [])]);
      return ok(paginate(under(id), pageOf(ctx.query, { size: 10, max: 50 })));
    },
  },
  {
    method: "GET",
    path: "/open-apis/search/v1/user",
    auth: "token",
    scopes: USER_SEARCH,
    identities: ["user"],
    handle(ctx) {
      const q = (ctx.query.get("query") ?? "").toLowerCase();
      const rows = all<UserRow>(ctx.st.db, "SELECT * FROM users ORDER BY name")
        .filter((u) => [u.name, u.en_name, u.email].some((s) => s.toLowerCase().includes(q)));
      const page = paginate(
        rows.map((u) => ({
          name: u.name,
          open_id: u.open_id,
          user_id: u.user_id,
          department_ids: [u.department_id],
          avatar: avatar(u.open_id),
        })),
        pageOf(ctx.query, { size: 20, max: 200 }),
      );
      return ok({
        users: page.items,
        has_more: page.has_more,
        ...(page.page_token ? { page_token: page.page_token } : {}),
      });
    },
  },
];
