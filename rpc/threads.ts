/**
 * Threads, turns and items with larkit's meaning: a turn's text is one larkit command line, run in-process
 * with this machine's credentials. This module keeps the live part (who is subscribed to which thread, the
 * running turn, its abort controller) over the persisted part (`ThreadStore`), and emits the turn's events to
 * every subscribed connection in order.
 */
import * as z from "zod";
import { join } from "node:path";
import type { ApprovalDecision, ApprovalRequest, Approver, Provider } from "../cli/provider.ts";
import { errors } from "../cli/output/errors.ts";
import type { Origin } from "./connection.ts";
import { type CommandOutcome, refusedOutcome, runCommand, type Runner, statusOf } from "./command_run.ts";
import { rpcErrors } from "./errors.ts";
import {
  mayApprove,
  mayReach,
  ownerOf,
  policyApprover,
  policyFetch,
  type RemotePolicy,
  turnGate,
} from "./policy.ts";
import {
  APPROVAL_METHOD,
  type ApprovalParams,
  Decision,
  type NotificationName,
  type NotificationParams,
  type ParamsOf,
  type ResultOf,
  type Thread,
  type Turn,
} from "./protocol.ts";
import type { ServerRequests } from "./server_requests.ts";
import { type ConnectionInfo, ReplyThen, type Session } from "./session.ts";
import type { ItemBody, Owner, ThreadRecord, ThreadStore, TurnRecord } from "./store.ts";
import { tokenize } from "./tokenize.ts";

const ApprovalAnswer = z.looseObject({ decision: Decision });

/** Notifications that belong to one thread (sent to its subscribers, `threadId` filled in). */
type ThreadNotification = Exclude<NotificationName, "thread/started" | "remoteControl/status/changed">;

export interface HubOptions {
  provider: Provider;
  store: ThreadStore;
  /** Runs a turn's argv; absent, every turn is refused (a server built without the CLI). */
  runner?: Runner;
  policy: RemotePolicy;
  requests: ServerRequests;
  approvalTimeoutMs: number;
  /** Sends `thread/started` to every initialized connection `to` accepts. */
  announce(
    method: "thread/started",
    params: NotificationParams<"thread/started">,
    to: (c: ConnectionInfo) => boolean,
  ): Promise<void>;
  log(event: string, fields: Record<string, unknown>): void;
}

interface ActiveTurn {
  id: string;
  /** The origin and owner of the connection that started it: decide who may approve or interrupt it. */
  origin: Origin;
  owner: Owner;
  controller: AbortController;
  done: Promise<void>;
}

interface LiveThread {
  subscribers: Set<Session>;
  active?: ActiveTurn;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export class ThreadHub {
  #o: HubOptions;
  #live = new Map<string, LiveThread>();
  /** Running `command/exec` one-shots, so shutdown can abort them too. */
  #execs = new Set<AbortController>();

  constructor(opts: HubOptions) {
    this.#o = opts;
  }

  #liveOf(threadId: string): LiveThread {
    let live = this.#live.get(threadId);
    if (!live) this.#live.set(threadId, live = { subscribers: new Set() });
    return live;
  }

  /** The thread's private working directory under the state dir (0700); nothing in it is executed or imported. */
  #workspace(threadId: string): string {
    return join(this.#o.provider.paths.stateDir, "workspaces", threadId);
  }

  async #ensureWorkspace(threadId: string): Promise<string> {
    const dir = this.#workspace(threadId);
    await this.#o.provider.files.mkdir(dir, { mode: 0o700 });
    return dir;
  }

  /** A connection may answer a thread's approval while subscribed to it, within the origin rules. */
  #mayAnswerThread(threadId: string, asker: { origin: Origin; owner: Owner }, c: ConnectionInfo): boolean {
    const subscribed = [...this.#live.get(threadId)?.subscribers ?? []].some((s) => s.id === c.id);
    return subscribed && mayApprove(asker, c, this.#o.policy);
  }

  /**
   * The thread, if `c` may reach it; one it may not (under a remote policy, another's) is not found, exactly
   * like an unknown id, so ids cannot be probed.
   */
  #thread(threadId: string, c: ConnectionInfo): ThreadRecord {
    const t = this.#o.store.getThread(threadId);
    if (!t || !mayReach(c, t.owner, this.#o.policy)) {
      throw rpcErrors.notFound(`thread not found: ${threadId}`);
    }
    return t;
  }

  #status(threadId: string): { type: "idle" | "active"; activeFlags: string[] } {
    const active = this.#live.get(threadId)?.active;
    if (!active) return { type: "idle", activeFlags: [] };
    const waiting = this.#o.requests.pendingFor({ threadId }).length > 0;
    return { type: "active", activeFlags: waiting ? ["waitingOnApproval"] : [] };
  }

  /** The thread as `viewer` may see it: only the turns it may reach (under a remote policy, its own). */
  #threadView(t: ThreadRecord, withTurns: boolean, viewer?: ConnectionInfo): Thread {
    return {
      id: t.id,
      preview: t.preview,
      cwd: this.#workspace(t.id),
      createdAt: seconds(t.createdAtMs),
      updatedAt: seconds(t.updatedAtMs),
      status: this.#status(t.id),
      turns: withTurns
        ? this.#o.store.turnsOf(t.id)
          .filter((turn) => viewer === undefined || mayReach(viewer, turn.owner, this.#o.policy))
          .map((turn) => this.#turnView(turn))
        : [],
    };
  }

  #turnView(t: TurnRecord, items?: ItemBody[]): Turn {
    const view: Turn = {
      id: t.id,
      threadId: t.threadId,
      input: t.input,
      status: t.status,
      exitCode: t.exitCode,
      startedAt: seconds(t.startedAtMs),
      completedAt: t.completedAtMs === null ? null : seconds(t.completedAtMs),
      durationMs: t.completedAtMs === null ? null : t.completedAtMs - t.startedAtMs,
      items: items ?? this.#o.store.itemsOf(t.id),
    };
    if (t.result !== undefined) view.result = t.result;
    if (t.error !== undefined) view.error = t.error;
    return view;
  }

  /**
   * Every subscriber gets each event before the next one is sent: one order for all connections. A turn's
   * events go only to the subscribers that may reach the turn (`owner`, its starter): under a remote policy a
   * device subscribed to its thread does not see a local client's turn in it.
   */
  async #emit<N extends ThreadNotification>(
    threadId: string,
    method: N,
    params: Omit<NotificationParams<N>, "threadId">,
    owner: Owner,
  ): Promise<void> {
    const subs = [...this.#live.get(threadId)?.subscribers ?? []].filter((s) =>
      mayReach(s, owner, this.#o.policy)
    );
    const full = { threadId, ...params } as NotificationParams<N>;
    await Promise.all(subs.map((s) => s.notify(method, full)));
  }

  subscribe(threadId: string, session: Session): void {
    this.#liveOf(threadId).subscribers.add(session);
  }

  /** The connection went away: it stops receiving events; its threads' turns and approvals carry on. */
  unsubscribeAll(session: Session): void {
    for (const [threadId, live] of this.#live) {
      live.subscribers.delete(session);
      if (live.subscribers.size === 0 && !live.active) this.#live.delete(threadId);
    }
  }

  async startThread(session: Session): Promise<ReplyThen<ResultOf<"thread/start">>> {
    const now = this.#o.provider.clock.now();
    const id = this.#o.provider.random.uuid();
    const owner = ownerOf(session, this.#o.policy);
    const t: ThreadRecord = {
      id,
      preview: "",
      cwd: await this.#ensureWorkspace(id),
      createdAtMs: now,
      updatedAtMs: now,
      owner,
    };
    this.#o.store.createThread(t);
    this.subscribe(t.id, session);
    const thread = this.#threadView(t, false);
    this.#o.log("thread_started", { thread: t.id, connection: session.id, origin: session.origin });
    return new ReplyThen(
      { thread },
      () => this.#o.announce("thread/started", { thread }, (c) => mayReach(c, owner, this.#o.policy)),
    );
  }

  list(session: Session, params: ParamsOf<"thread/list">): ResultOf<"thread/list"> {
    const { policy } = this.#o;
    // Under a remote policy a remote device lists its own threads only (filtered in the query, so pages fill).
    const only = mayReach(session, null, policy) ? undefined : ownerOf(session, policy) ?? undefined;
    const page = this.#o.store.listThreads(params.limit ?? 50, params.cursor ?? undefined, only);
    return { data: page.threads.map((t) => this.#threadView(t, false)), nextCursor: page.nextCursor };
  }

  read(session: Session, params: ParamsOf<"thread/read">): ResultOf<"thread/read"> {
    const t = this.#thread(params.threadId, session);
    return { thread: this.#threadView(t, params.includeTurns ?? true, session) };
  }

  /** Subscribes the connection and re-sends it the pending approvals it may answer, under their original ids. */
  resume(session: Session, params: ParamsOf<"thread/resume">): ReplyThen<ResultOf<"thread/resume">> {
    const t = this.#thread(params.threadId, session);
    this.subscribe(t.id, session);
    const thread = this.#threadView(t, true, session);
    return new ReplyThen({ thread }, async () => {
      for (const pending of this.#o.requests.pendingFor({ threadId: t.id })) {
        if (pending.mayAnswer(session)) await session.request(pending.id, pending.method, pending.params);
      }
    });
  }

  startTurn(session: Session, params: ParamsOf<"turn/start">): ReplyThen<ResultOf<"turn/start">> {
    const t = this.#thread(params.threadId, session);
    const text = params.input.map((i) => i.text).join(" ");
    const argv = tokenize(text);
    if (!argv.ok) throw rpcErrors.invalidParams(argv.reason);
    const live = this.#liveOf(t.id);
    if (live.active) throw rpcErrors.threadBusy(t.id, live.active.id);
    live.subscribers.add(session);

    const { clock, random } = this.#o.provider;
    const owner = ownerOf(session, this.#o.policy);
    const turn: TurnRecord = {
      id: random.uuid(),
      threadId: t.id,
      status: "inProgress",
      input: text,
      exitCode: null,
      startedAtMs: clock.now(),
      completedAtMs: null,
      owner,
    };
    const userMessage: ItemBody = {
      type: "userMessage",
      id: random.uuid(),
      content: [{ type: "text", text }],
    };
    const command: ItemBody = {
      type: "commandExecution",
      id: random.uuid(),
      command: text,
      argv: argv.argv,
      cwd: this.#workspace(t.id),
      status: "inProgress",
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    };
    // Stored before any of it is announced, in one commit (a turn's writes were most of a trivial turn).
    this.#o.store.startTurn(turn, [userMessage, command], t.preview === "" ? text : undefined);
    const controller = new AbortController();
    let startRun!: () => void;
    const go = new Promise<void>((resolve) => startRun = resolve);
    // The run waits for the response to be sent, so turn/start's reply always precedes turn/started.
    const done = go.then(() =>
      this.#runTurn(session, turn, argv.argv, { userMessage, command }, controller.signal)
    )
      .catch((e) => this.#o.log("turn_crashed", { turn: turn.id, error: String(e) }))
      .finally(() => {
        if (live.active?.id === turn.id) live.active = undefined;
      });
    live.active = { id: turn.id, origin: session.origin, owner, controller, done };
    this.#o.log("turn_started", {
      thread: t.id,
      turn: turn.id,
      connection: session.id,
      origin: session.origin,
    });
    return new ReplyThen({ turn: this.#turnView(turn, []) }, () => {
      startRun();
      return Promise.resolve();
    });
  }

  async #runTurn(
    session: Session,
    turn: TurnRecord,
    argv: string[],
    items: { userMessage: ItemBody; command: ItemBody },
    signal: AbortSignal,
  ): Promise<void> {
    const { store, provider } = this.#o;
    const threadId = turn.threadId;
    const { userMessage, command } = items;
    const cwd = this.#workspace(threadId);
    const owner = turn.owner;
    const emit = <N extends ThreadNotification>(method: N, params: Omit<NotificationParams<N>, "threadId">) =>
      this.#emit(threadId, method, params, owner);
    // The workspace is made while the first events go out; the command waits for it.
    const workspace = this.#ensureWorkspace(threadId);
    workspace.catch(() => {/* awaited below, where the failure ends the turn */});
    const item = async (method: "item/started" | "item/completed", body: ItemBody) => {
      const at = provider.clock.now();
      await emit(method, {
        turnId: turn.id,
        item: body,
        ...(method === "item/started" ? { startedAtMs: at } : { completedAtMs: at }),
      });
    };

    await emit("thread/status/changed", { status: this.#status(threadId) });
    await emit("turn/started", { turn: this.#turnView(turn, []) });
    await item("item/started", userMessage);
    await item("item/completed", userMessage);

    const startedAtMs = provider.clock.now();
    await workspace;
    await item("item/started", command);

    const outcome = await this.#execute(session, argv, signal, cwd, {
      onOutput: (stream, delta) =>
        emit("command/exec/outputDelta", {
          turnId: turn.id,
          itemId: command.id,
          stream,
          delta,
        }),
      ask: (req) =>
        this.#askThread({ origin: session.origin, owner }, threadId, turn.id, command.id, turn.input, req),
    });
    const status = statusOf(outcome);
    const completed: ItemBody = {
      ...command,
      status,
      aggregatedOutput: outcome.aggregated,
      exitCode: outcome.exitCode,
      durationMs: provider.clock.now() - startedAtMs,
    };
    turn.status = status;
    turn.exitCode = outcome.exitCode;
    turn.completedAtMs = provider.clock.now();
    if (outcome.result !== undefined) turn.result = outcome.result;
    if (outcome.error !== undefined) turn.error = outcome.error;
    store.completeTurn(turn, completed);
    await item("item/completed", completed);

    const live = this.#liveOf(threadId);
    live.active = undefined;
    await emit("thread/status/changed", { status: this.#status(threadId) });
    await emit("turn/completed", { turn: this.#turnView(turn, [userMessage, completed]) });
    this.#o.log("turn_completed", { thread: threadId, turn: turn.id, status, exitCode: outcome.exitCode });
  }

  /** Runs argv in `cwd` under the server's policy for the asking connection's origin. */
  #execute(
    session: Session,
    argv: string[],
    signal: AbortSignal,
    cwd: string,
    io: { onOutput: (stream: "stdout" | "stderr", delta: string) => Promise<unknown>; ask: Approver },
  ): Promise<CommandOutcome> {
    const { provider, runner, policy } = this.#o;
    const run = {
      argv,
      signal,
      cwd,
      gate: turnGate(session.origin, policy),
      approver: policyApprover(session.origin, policy, io.ask),
      fetch: policyFetch(session.origin, policy, provider.fetch),
      onOutput: async (stream: "stdout" | "stderr", delta: string) => {
        await io.onOutput(stream, delta);
      },
    };
    if (!runner) {
      return refusedOutcome(
        provider,
        errors.permission("this agent server was started without a command runner", {
          hint: "start it with `larkit app-server`",
        }),
        run,
      );
    }
    return runCommand(provider, runner, run);
  }

  /** The approval question a client is asked about `req`, raised while running the command line `command`. */
  #approvalParams(
    at: { threadId: string | null; turnId: string | null; itemId: string },
    command: string,
    req: ApprovalRequest,
  ): ApprovalParams {
    return {
      ...at,
      startedAtMs: this.#o.provider.clock.now(),
      command,
      argv: req.argv,
      service: req.service ?? null,
      risk: req.risk,
      summary: req.summary,
      availableDecisions: ["accept", "decline", "cancel"],
    };
  }

  /** Asks the thread's clients; the question outlives any one connection (re-sent on thread/resume). */
  async #askThread(
    asker: { origin: Origin; owner: Owner },
    threadId: string,
    turnId: string,
    itemId: string,
    command: string,
    req: ApprovalRequest,
  ): Promise<ApprovalDecision> {
    const params = this.#approvalParams({ threadId, turnId, itemId }, command, req);
    const { request, settled } = this.#o.requests.open(APPROVAL_METHOD, params, {
      timeoutMs: this.#o.approvalTimeoutMs,
      threadId,
      turnId,
      mayAnswer: (c) => this.#mayAnswerThread(threadId, asker, c),
    });
    await this.#emit(threadId, "thread/status/changed", { status: this.#status(threadId) }, asker.owner);
    const subs = [...this.#live.get(threadId)?.subscribers ?? []].filter((s) => request.mayAnswer(s));
    await Promise.all(subs.map((s) => s.request(request.id, request.method, request.params)));
    const decision = decisionOf(await settled);
    await this.#emit(threadId, "serverRequest/resolved", { requestId: request.id }, asker.owner);
    await this.#emit(threadId, "thread/status/changed", { status: this.#status(threadId) }, asker.owner);
    this.#o.log("approval", { thread: threadId, turn: turnId, requestId: request.id, decision });
    return decision;
  }

  /** Under a remote policy a remote device interrupts only its own turns, never a local client's. */
  interrupt(session: Session, params: ParamsOf<"turn/interrupt">): ResultOf<"turn/interrupt"> {
    this.#thread(params.threadId, session);
    const active = this.#live.get(params.threadId)?.active;
    if (!active || active.id !== params.turnId || !mayReach(session, active.owner, this.#o.policy)) {
      throw rpcErrors.notFound(`no running turn ${params.turnId} in thread ${params.threadId}`);
    }
    active.controller.abort(new DOMException("turn interrupted", "AbortError"));
    for (const pending of this.#o.requests.pendingFor({ turnId: active.id })) {
      this.#o.requests.cancel(pending.id, "turn interrupted");
    }
    return {};
  }

  /**
   * `command/exec`: one command, no thread; approvals go to, and are taken from, the asking connection only.
   * It runs in the connection's own workspace, which lives as long as the server's state dir.
   */
  async exec(session: Session, params: ParamsOf<"command/exec">): Promise<ResultOf<"command/exec">> {
    const argv = typeof params.command === "string" ? tokenize(params.command) : {
      ok: true as const,
      argv: params.command[0] === "larkit" ? params.command.slice(1) : params.command,
    };
    if (!argv.ok) throw rpcErrors.invalidParams(argv.reason);
    if (argv.argv.length === 0) throw rpcErrors.invalidParams("the command is empty");
    const controller = new AbortController();
    this.#execs.add(controller);
    const stopTimer = new AbortController();
    if (params.timeoutMs) {
      this.#o.provider.clock.sleep(params.timeoutMs, stopTimer.signal).then(
        () => controller.abort(new DOMException("command/exec timed out", "TimeoutError")),
        () => {/* finished first */},
      );
    }
    const processId = this.#o.provider.random.uuid();
    try {
      const cwd = await this.#ensureWorkspace(`exec-${session.id}`);
      const outcome = await this.#execute(session, argv.argv, controller.signal, cwd, {
        onOutput: () => Promise.resolve(),
        ask: async (req) => {
          const approval = this.#approvalParams(
            { threadId: null, turnId: null, itemId: processId },
            argv.argv.join(" "),
            req,
          );
          const { request, settled } = this.#o.requests.open(APPROVAL_METHOD, approval, {
            timeoutMs: this.#o.approvalTimeoutMs,
            mayAnswer: (c) =>
              c.id === session.id &&
              mayApprove(
                { origin: session.origin, owner: ownerOf(session, this.#o.policy) },
                c,
                this.#o.policy,
              ),
          });
          await session.request(request.id, request.method, request.params);
          return decisionOf(await settled);
        },
      });
      const result: ResultOf<"command/exec"> = {
        status: statusOf(outcome),
        exitCode: outcome.exitCode,
        stdout: outcome.stdout,
        stderr: outcome.stderr,
      };
      if (outcome.result !== undefined) result.result = outcome.result;
      if (outcome.error !== undefined) result.error = outcome.error;
      return result;
    } finally {
      stopTimer.abort();
      this.#execs.delete(controller);
    }
  }

  /** Shutdown: abort every running command and wait for their turns to record the interruption. */
  async closeAll(): Promise<void> {
    const running: Promise<void>[] = [];
    for (const live of this.#live.values()) {
      if (!live.active) continue;
      live.active.controller.abort(new DOMException("server shutting down", "AbortError"));
      running.push(live.active.done);
    }
    for (const c of this.#execs) c.abort(new DOMException("server shutting down", "AbortError"));
    this.#o.requests.cancelAll("server shutting down");
    await Promise.all(running);
  }
}

/** A missing, malformed or failed answer never approves anything. */
function decisionOf(s: Awaited<ReturnType<ServerRequests["open"]>["settled"]>): ApprovalDecision {
  if (s.kind === "error") return "cancel";
  const parsed = ApprovalAnswer.safeParse(s.result);
  return parsed.success ? parsed.data.decision : "cancel";
}
