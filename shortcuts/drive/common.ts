/**
 * What the drive, wiki, docs, markdown and slides shortcuts share: polling a suite task to its end (with
 * progress and a timeout), granting the requesting user access to what a bot created, and the document
 * types Drive's permission and comment endpoints take.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
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

/**
 * A document a bot creates belongs to the app: the requesting (logged-in) user gets full access so they can
 * open it. Returns who was granted, or why nobody was (no user logged in; the user created it themselves).
 */
export async function grantRequester<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  token: string,
  type: DocType,
): Promise<{ granted_to?: string; grant_skipped?: string }> {
  if (ctx.identity !== "bot") return { grant_skipped: "created as the user" };
  const user = ctx.requesterOpenId;
  if (!user) return { grant_skipped: "no logged-in user to grant (run `larkit auth login`)" };
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
  return { granted_to: user };
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
