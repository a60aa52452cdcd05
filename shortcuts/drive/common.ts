/**
 * What the drive, wiki, docs, markdown and slides shortcuts share: polling a suite task to its end (with
 * progress and a timeout), granting the requesting user access to what a bot created, and the document
 * types Drive's permission and comment endpoints take.
 */
import * as z from "zod";
import { errors, LarkitError } from "../../cli/output/errors.ts";
import { type Call, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";

/** Document types Drive's permission/comment/meta endpoints address a token by. */
export const DOC_TYPES = [
  "doc",
  "docx",
  "sheet",
  "bitable",
  "file",
  "folder",
  "wiki",
  "mindnote",
  "slides",
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** `--timeout` / `--poll-interval` of every shortcut that waits on a suite task. */
export function pollFlags() {
  return {
    timeout: flag.integer("seconds to wait for the suite's task before giving up", {
      default: 120,
      min: 1,
      max: 3600,
    }),
    "poll-interval": flag.integer("seconds between checks of the task", { default: 2, min: 1, max: 60 }),
  };
}

export type TaskState = "done" | "running" | "failed";

/**
 * Checks a suite task until `stateOf` says it ended, sleeping `--poll-interval` between checks; a task still
 * running after `--timeout` is an error naming the task so the caller can check it later (`drive +task_result`).
 * In the plan the first (planned) answer ends it.
 */
export async function pollTask<F extends FlagSpecs, T>(
  ctx: ShortcutContext<F>,
  opts: { timeout: number; interval: number; what: string; taskId: string; resume: string },
  call: Call<T>,
  stateOf: (answer: T) => { state: TaskState; message?: string },
): Promise<T> {
  const deadline = ctx.now() + opts.timeout * 1000;
  for (let attempt = 1;; attempt++) {
    const answer = await ctx.api({
      ...call,
      description: call.description ?? `repeated until the ${opts.what} ends`,
    });
    const { state, message } = stateOf(answer);
    if (state === "done") return answer;
    if (state === "failed") {
      throw errors.api(`${opts.what} ${opts.taskId} failed${message ? `: ${message}` : ""}`);
    }
    if (ctx.now() + opts.interval * 1000 > deadline) {
      throw errors.timeout(`${opts.what} ${opts.taskId} still running after ${opts.timeout}s`, {
        hint: `check it later with: ${opts.resume}`,
      });
    }
    await ctx.progress(`${opts.what} ${opts.taskId}: running (check ${attempt})`);
    await ctx.sleep(opts.interval * 1000);
  }
}

const Granted = z.unknown();

/** What a bot's grant to the requesting user came to, in the reference CLI's shape. */
export interface PermissionGrant {
  status: "granted" | "skipped" | "failed";
  perm: "full_access";
  message: string;
  user_open_id?: string;
  member_type?: "openid";
}

/**
 * A document a bot creates belongs to the app: the requesting (logged-in) user gets full access so they can
 * open it, and the result says so as `permission_grant` (the reference's shape). A grant that fails does not
 * turn the creation into an error (an agent would re-run it): the result reports it `failed`, with why. As
 * the user, nothing to grant.
 */
export async function grantRequester<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  token: string,
  type: DocType,
): Promise<{ permission_grant?: PermissionGrant }> {
  if (ctx.identity !== "bot") return {};
  const user = await ctx.requesterOpenId();
  if (!user) {
    return {
      permission_grant: {
        status: "skipped",
        perm: "full_access",
        message:
          "no logged-in user to grant: only the app can open it (run `larkit auth login` first next time)",
      },
    };
  }
  const grant = { perm: "full_access", user_open_id: user, member_type: "openid" } as const;
  try {
    await ctx.api({
      method: "POST",
      path: `/open-apis/drive/v1/permissions/${encodeURIComponent(token)}/members`,
      params: { type, need_notification: false },
      body: { member_type: "openid", member_id: user, perm: "full_access" },
      description: "gives the logged-in user full access to what the bot created",
      repeatable: true,
      response: Granted,
      planned: {},
    });
  } catch (e) {
    if (!(e instanceof LarkitError) || e.type === "interrupted") throw e;
    return { permission_grant: { status: "failed", ...grant, message: e.message } };
  }
  return { permission_grant: { status: "granted", ...grant, message: "the logged-in user has full access" } };
}

/** A token as typed or inside a suite URL (`.../docx/<token>`, `.../wiki/<token>?...`). */
export function tokenOf(value: string, flagName: string): string {
  const m = value.match(/^https?:\/\/[^/]+\/(?:[a-z]+\/)*([A-Za-z0-9_-]+)(?:[?#].*)?$/);
  const token = m ? m[1] : value;
  if (!/^[A-Za-z0-9_-]+$/.test(token)) {
    throw errors.validation(`--${flagName}: ${value} is not a token or URL`);
  }
  return token;
}
