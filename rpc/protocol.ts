/**
 * The agent server's whole JSON-RPC surface in one place: every method (name, params schema, result schema),
 * every notification, every server->client request. Handlers are registered against it (`Handlers`, `defineMethod`),
 * so a handler for method M returns M's result type and sending notification N takes N's params type;
 * `docs/rpc.md` is checked against it by `tests/rpc_doc_test.ts`. Remote control's methods live here too:
 * `relay/` implements them but does not define their shape.
 */
import * as z from "zod";
import { ERROR_SUBTYPE_NAMES, ERROR_TYPES } from "../cli/output/errors.ts";

// ---- shared shapes --------------------------------------------------------------------------------------

const Seconds = z.number().check(z.int());
const ThreadStatus = z.object({
  type: z.enum(["idle", "active"]),
  activeFlags: z.array(z.string()),
});
export const TurnStatusSchema = z.enum(["inProgress", "completed", "failed", "interrupted"]);

/** An item as clients see it (`userMessage`, `commandExecution`); kept open so new item kinds stay readable. */
export const ItemSchema = z.looseObject({ type: z.string(), id: z.string() });
export type Item = z.infer<typeof ItemSchema>;

export const TurnSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  input: z.string(),
  status: TurnStatusSchema,
  exitCode: z.nullable(z.number().check(z.int())),
  startedAt: Seconds,
  completedAt: z.nullable(Seconds),
  durationMs: z.nullable(z.number()),
  items: z.array(ItemSchema),
  result: z.optional(z.unknown()),
  error: z.optional(z.unknown()),
});
export type Turn = z.infer<typeof TurnSchema>;

export const ThreadSchema = z.object({
  id: z.string(),
  preview: z.string(),
  /** The thread's private workspace: where `@file`, `--file`, `--output` and downloads of its turns resolve. */
  cwd: z.string(),
  createdAt: Seconds,
  updatedAt: Seconds,
  status: ThreadStatus,
  turns: z.array(TurnSchema),
});
export type Thread = z.infer<typeof ThreadSchema>;

export const RemoteControlStatusViewSchema = z.object({
  status: z.enum(["disabled", "connecting", "connected", "errored"]),
  serverName: z.string(),
  installationId: z.string(),
  environmentId: z.nullable(z.string()),
  error: z.optional(z.object({
    message: z.string(),
    hint: z.optional(z.string()),
    type: z.optional(z.enum(ERROR_TYPES)),
    subtype: z.optional(z.enum(ERROR_SUBTYPE_NAMES)),
  })),
});
export type RemoteControlStatusView = z.infer<typeof RemoteControlStatusViewSchema>;

/** A device paired with an environment (the reference's `RemoteControlClient`); times in Unix seconds. */
export const RemoteControlClientSchema = z.object({
  clientId: z.string(),
  displayName: z.nullable(z.string()),
  deviceType: z.nullable(z.string()),
  platform: z.nullable(z.string()),
  osVersion: z.nullable(z.string()),
  deviceModel: z.nullable(z.string()),
  appVersion: z.nullable(z.string()),
  lastSeenAt: z.nullable(z.number()),
});

/** A relay-issued pairing code; `expiresAt` in Unix seconds. */
export const RemoteControlPairingSchema = z.object({
  pairingCode: z.string(),
  manualPairingCode: z.nullable(z.string()),
  environmentId: z.string(),
  expiresAt: z.number(),
});

// ---- methods ----------------------------------------------------------------------------------------------

export const InitializeParamsSchema = z.object({
  clientInfo: z.object({
    name: z.string().check(z.minLength(1)),
    title: z.nullish(z.string()),
    version: z.string(),
  }),
  capabilities: z.nullish(z.looseObject({
    experimentalApi: z.optional(z.boolean()),
    optOutNotificationMethods: z.nullish(z.array(z.string())),
  })),
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

const TextInput = z.looseObject({
  type: z.literal("text", { error: "only text input is supported: the text is one larkit command line" }),
  text: z.string(),
});
const NoParams = z.nullish(z.object({}));
const RunStatus = z.enum(["completed", "failed", "interrupted"]);

export interface MethodSpec {
  params: z.ZodMiniType;
  result: z.ZodMiniType;
  /** Only connections that initialized with `capabilities.experimentalApi` may call it. */
  experimental?: boolean;
  /** Implemented by relay/ (every app server serves it; `daemon/shutdown` only with `--remote-control`). */
  remoteControl?: boolean;
}

export const METHODS = {
  initialize: {
    params: InitializeParamsSchema,
    result: z.object({
      userAgent: z.string(),
      serverInfo: z.object({ name: z.string(), version: z.string() }),
      platformFamily: z.enum(["unix", "windows"]),
      platformOs: z.string(),
      connection: z.object({ id: z.string(), origin: z.string() }),
      clientInfo: InitializeParamsSchema.shape.clientInfo,
    }),
  },
  "thread/start": { params: z.looseObject({}), result: z.object({ thread: ThreadSchema }) },
  "thread/list": {
    params: z.looseObject({
      cursor: z.nullish(z.string()),
      limit: z.nullish(z.number().check(z.int(), z.minimum(1), z.maximum(200))),
    }),
    result: z.object({ data: z.array(ThreadSchema), nextCursor: z.nullable(z.string()) }),
  },
  "thread/read": {
    params: z.looseObject({
      threadId: z.string().check(z.minLength(1)),
      includeTurns: z.optional(z.boolean()),
    }),
    result: z.object({ thread: ThreadSchema }),
  },
  "thread/resume": {
    params: z.looseObject({ threadId: z.string().check(z.minLength(1)) }),
    result: z.object({ thread: ThreadSchema }),
  },
  "turn/start": {
    params: z.looseObject({
      threadId: z.string().check(z.minLength(1)),
      input: z.array(TextInput).check(z.minLength(1)),
    }),
    result: z.object({ turn: TurnSchema }),
  },
  "turn/interrupt": {
    params: z.looseObject({
      threadId: z.string().check(z.minLength(1)),
      turnId: z.string().check(z.minLength(1)),
    }),
    result: z.object({}),
  },
  "command/exec": {
    params: z.looseObject({
      command: z.union([z.string().check(z.minLength(1)), z.array(z.string()).check(z.minLength(1))]),
      timeoutMs: z.nullish(z.number().check(z.int(), z.positive())),
    }),
    result: z.object({
      status: RunStatus,
      exitCode: z.number().check(z.int()),
      stdout: z.string(),
      stderr: z.string(),
      result: z.optional(z.unknown()),
      error: z.optional(z.unknown()),
    }),
  },
  "remoteControl/enable": {
    params: NoParams,
    result: RemoteControlStatusViewSchema,
    experimental: true,
    remoteControl: true,
  },
  "remoteControl/disable": {
    params: NoParams,
    result: RemoteControlStatusViewSchema,
    experimental: true,
    remoteControl: true,
  },
  "remoteControl/status/read": {
    params: NoParams,
    result: RemoteControlStatusViewSchema,
    experimental: true,
    remoteControl: true,
  },
  /** A pairing code for a new device; works while disabled (the enrollment is reused or made). Local clients only. */
  "remoteControl/pairing/start": {
    params: z.nullish(z.looseObject({ manualCode: z.optional(z.boolean()) })),
    result: RemoteControlPairingSchema,
    experimental: true,
    remoteControl: true,
  },
  "remoteControl/pairing/status": {
    params: z.looseObject({
      pairingCode: z.nullish(z.string().check(z.minLength(1))),
      manualPairingCode: z.nullish(z.string().check(z.minLength(1))),
    }),
    result: z.object({ claimed: z.boolean() }),
    experimental: true,
    remoteControl: true,
  },
  /** Devices paired with an environment (this server's when `environmentId` is omitted), with last-seen times. */
  "remoteControl/client/list": {
    params: z.nullish(z.looseObject({
      environmentId: z.nullish(z.string().check(z.minLength(1))),
      cursor: z.nullish(z.string()),
      limit: z.nullish(z.number().check(z.int(), z.minimum(1), z.maximum(200))),
      order: z.nullish(z.enum(["asc", "desc"])),
    })),
    result: z.object({ data: z.array(RemoteControlClientSchema), nextCursor: z.nullable(z.string()) }),
    experimental: true,
    remoteControl: true,
  },
  /** Revokes a device: refused by the relay from then on, its open streams closed at once. Local clients only. */
  "remoteControl/client/revoke": {
    params: z.looseObject({
      environmentId: z.nullish(z.string().check(z.minLength(1))),
      clientId: z.string().check(z.minLength(1)),
    }),
    result: z.object({}),
    experimental: true,
    remoteControl: true,
  },
  "daemon/shutdown": { params: NoParams, result: z.object({}), experimental: true, remoteControl: true },
  /** Events of the app's running event hub as `event/received` notifications to this connection. */
  "event/subscribe": {
    params: z.looseObject({
      threadId: z.string().check(z.minLength(1)),
      keys: z._default(z.array(z.string().check(z.minLength(1))), []),
      params: z._default(z.record(z.string(), z.string()), {}),
    }),
    result: z.object({ subscriptionId: z.string() }),
  },
  "event/unsubscribe": {
    params: z.looseObject({ subscriptionId: z.string().check(z.minLength(1)) }),
    result: z.object({}),
  },
} as const satisfies Record<string, MethodSpec>;

export type MethodName = keyof typeof METHODS;
export type ParamsOf<M extends MethodName> = z.infer<(typeof METHODS)[M]["params"]>;
export type ResultOf<M extends MethodName> = z.input<(typeof METHODS)[M]["result"]>;

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}

// ---- notifications (server -> client) ----------------------------------------------------------------------

const ThreadEvent = { threadId: z.string() };
const TurnEvent = { threadId: z.string(), turnId: z.string() };

export const NOTIFICATIONS = {
  "thread/started": z.object({ thread: ThreadSchema }),
  "thread/status/changed": z.object({ ...ThreadEvent, status: ThreadStatus }),
  "turn/started": z.object({ ...ThreadEvent, turn: TurnSchema }),
  "item/started": z.object({ ...TurnEvent, item: ItemSchema, startedAtMs: z.number() }),
  "item/completed": z.object({ ...TurnEvent, item: ItemSchema, completedAtMs: z.number() }),
  "command/exec/outputDelta": z.object({
    ...TurnEvent,
    itemId: z.string(),
    stream: z.enum(["stdout", "stderr"]),
    delta: z.string(),
  }),
  "serverRequest/resolved": z.object({ ...ThreadEvent, requestId: z.string() }),
  "turn/completed": z.object({ ...ThreadEvent, turn: TurnSchema }),
  "remoteControl/status/changed": RemoteControlStatusViewSchema,
  /** One suite event (the v2 envelope) for an `event/subscribe` subscription. */
  "event/received": z.object({ threadId: z.string(), subscriptionId: z.string(), event: z.unknown() }),
  /** The subscription ended on its own (the hub stopped or failed). */
  "event/subscription/ended": z.object({
    threadId: z.string(),
    subscriptionId: z.string(),
    reason: z.string(),
  }),
} as const satisfies Record<string, z.ZodMiniType>;

export type NotificationName = keyof typeof NOTIFICATIONS;
export type NotificationParams<N extends NotificationName> = z.input<(typeof NOTIFICATIONS)[N]>;
/** Sends one typed notification (to a connection, or to every initialized connection). */
export type Notify = <N extends NotificationName>(method: N, params: NotificationParams<N>) => Promise<void>;

/** Notifications a client sends; the server acts on none but `initialized`. */
export const CLIENT_NOTIFICATIONS = ["initialized"] as const;

// ---- server -> client requests ------------------------------------------------------------------------------

export const Decision = z.enum(["accept", "decline", "cancel"]);

export const SERVER_REQUESTS = {
  "item/commandExecution/requestApproval": {
    params: z.object({
      threadId: z.nullable(z.string()),
      turnId: z.nullable(z.string()),
      itemId: z.string(),
      startedAtMs: z.number(),
      command: z.string(),
      argv: z.array(z.string()),
      service: z.nullable(z.string()),
      risk: z.enum(["read", "write", "high-risk-write"]),
      summary: z.unknown(),
      availableDecisions: z.array(Decision),
    }),
    result: z.looseObject({ decision: Decision }),
  },
} as const;

export type ServerRequestName = keyof typeof SERVER_REQUESTS;
export const APPROVAL_METHOD: ServerRequestName = "item/commandExecution/requestApproval";
export type ApprovalParams = z.input<
  (typeof SERVER_REQUESTS)["item/commandExecution/requestApproval"]["params"]
>;
