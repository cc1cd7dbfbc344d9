/**
 * Client → daemon methods: params and result schemas, named
 * `resource.action`. The daemon validates every incoming request's params with these; the TUI
 * imports the inferred types.
 */
import { z } from 'zod';
import {
  CronJobRef,
  CronJobResult,
  CronListParams,
  CronListResult,
  CronOutputResult,
  CronRunResult,
} from './cron.js';
import { CostStatusSchema } from './events.js';
import { ConversationMethods } from './conversation.js';
import { StatusSubscribeParams, StatusSubscribeResult } from './status.js';
import {
  HeartbeatAddParams,
  HeartbeatListParams,
  HeartbeatListResult,
  HeartbeatRemoveParams,
  HeartbeatResult,
} from './heartbeats.js';
import { ProcessKillParams, ProcessKillResult, ProcessListParams, ProcessListResult } from './processes.js';
import {
  ApprovalModeSchema,
  Inflight,
  OpenRequest,
  QueuedPrompt,
  SessionInfo,
  StoredMessage,
} from './records.js';
import {
  FilesCompleteParams,
  FilesCompleteResult,
  MAX_PROMPT_ATTACHMENTS,
  PromptAttachment,
} from './attachments.js';
import { ApprovalChoiceSchema } from './server-requests.js';
import { WireEventSchema } from './wire-events.js';

const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });
const ProfileName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'not a valid profile id');
const SessionRef = z.object({ session_id: z.string().min(1) });

export const InitializeParams = z.object({
  client: z.object({
    name: z.string(),
    version: z.string(),
    /**
     * Stable id of this client instance (one TUI window), kept across its reconnects and `/profile`
     * switches. Answers given through this connection are then `by: "client:<instance_id>"`, so
     * the client recognises its own answers under a new connection id; without it,
     * `by: "connection:<connection_id>"`.
     */
    instance_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only (at most 64)')
      .optional(),
  }),
  capabilities: z.object({
    approvals: z.boolean(),
    clarify: z.boolean().optional(),
    /**
     * The client serves `file.read` / `file.write` server requests (an editor: its open buffers).
     * The file tools of a session it is attached to read and write existing files through it.
     */
    files: z.boolean().optional(),
  }),
  /** Profile this connection starts in; default: the daemon's active profile. */
  profile: ProfileName.optional(),
});
export const InitializeResult = z.object({
  server: z.object({ name: z.string(), version: z.string() }),
  /** New at every daemon start: a changed epoch means the daemon restarted. */
  epoch: z.string(),
  connection_id: z.string(),
  profile: z.string(),
  profiles: z.array(z.string()),
  /**
   * Served profiles that cannot be used now (their state.db is damaged), with the error — file,
   * what is wrong, how to recover. Requests in such a profile get -32008; absent when none.
   */
  unavailable_profiles: z.array(z.object({ profile: z.string(), error: z.string() })).optional(),
});

export const SessionCreateParams = z.object({
  profile: ProfileName.optional(),
  /** Where the session comes from (`tui`, `cli` …); default `tui`. */
  source: z
    .string()
    .regex(/^[a-z0-9_:-]{1,32}$/)
    .optional(),
  /** Absolute working directory for the session's tools; must exist. */
  cwd: z.string().min(1).max(4096).optional(),
  title: z.string().max(200).optional(),
  model: z.string().optional(),
});
export const SessionCreateResult = z.object({ session: SessionInfo });

export const SessionListParams = z.object({
  profile: ProfileName.optional(),
  limit: z.number().int().positive().max(1000).optional(),
  query: z.string().optional(),
  source: z.string().optional(),
  /**
   * Absolute folder of a client that wants to continue (`hermes tui -c`): the answer is then the
   * one session to continue, or none — the interactive (cli/tui) session with the latest
   * activity, one of this folder first (`SessionDB.continueSession`); other filters are ignored.
   */
  continue_from: z.string().min(1).optional(),
});
export const SessionListResult = z.object({ sessions: z.array(SessionInfo) });

export const SessionAttachParams = z.object({
  session_id: z.string().min(1),
  /** Last seq the client saw: only the missed events are returned. */
  since_seq: z.number().int().nonnegative().optional(),
  /** How many stored messages the snapshot carries (default 200). */
  history_limit: z.number().int().positive().max(5000).optional(),
});
/** Full snapshot (no `since_seq`, or the ring no longer holds it: `truncated: true`). */
export const SessionSnapshot = z.object({
  kind: z.literal('snapshot'),
  session: SessionInfo,
  messages: z.array(StoredMessage),
  /** True when older messages exist (fetch with `session.history`). */
  has_more: z.boolean(),
  inflight: Inflight.nullable(),
  queued: z.array(QueuedPrompt),
  open_requests: z.array(OpenRequest),
  /** Seq of the last event emitted; live events continue from seq + 1. */
  seq: z.number().int().nonnegative(),
  epoch: z.string(),
  /** Set when `since_seq` was given but those events have left the ring. */
  truncated: z.boolean().optional(),
  /**
   * The session's last `session.usage` in this daemon (context tokens of the last request, the
   * model's context window, tokens of the session so far), so a client attaching between turns
   * shows the context gauge at once. Absent before the first turn in this daemon's life.
   */
  usage: z
    .object({
      total_tokens: z.number().int().nonnegative(),
      context_tokens: z.number().int().nonnegative().nullable(),
      context_window: z.number().int().positive().nullable(),
      /** USD the session's model calls cost so far, when a price is known (as `session.usage`). */
      session_cost_usd: z.number().nonnegative().optional(),
      /** How the session's cost is known (as `session.usage`). */
      session_cost_status: CostStatusSchema.optional(),
    })
    .optional(),
});
export const SessionReplay = z.object({
  kind: z.literal('replay'),
  session: SessionInfo,
  /** Exactly the events after `since_seq`, in order. */
  events: z.array(WireEventSchema),
  open_requests: z.array(OpenRequest),
  seq: z.number().int().nonnegative(),
  epoch: z.string(),
});
export const SessionAttachResult = z.discriminatedUnion('kind', [SessionSnapshot, SessionReplay]);

export const SessionHistoryParams = z.object({
  session_id: z.string().min(1),
  /** Message id: return messages older than it. */
  before: z.number().int().optional(),
  limit: z.number().int().positive().max(5000).optional(),
});
export const SessionHistoryResult = z.object({ messages: z.array(StoredMessage), has_more: z.boolean() });

export const SessionEventsSinceParams = z.object({
  session_id: z.string().min(1),
  since_seq: z.number().int().nonnegative(),
});
export const SessionEventsSinceResult = z.object({
  events: z.array(WireEventSchema),
  truncated: z.boolean(),
  seq: z.number().int().nonnegative(),
});

export const PromptSubmitParams = z.object({
  session_id: z.string().min(1),
  text: z.string().min(1),
  /** Opaque id of the message the prompt answers; echoed in the queue, `turn.start` and `turn.end`. */
  origin: z.string().min(1).max(200).optional(),
  /**
   * References to attach (`@path`, `@folder/`, `@diff`, `@staged`, `@url`): resolved by the
   * daemon in the session's folder; one that cannot be resolved refuses the whole prompt.
   * Images (`image`): checked (type, size, the model's vision) and stored with the message; a
   * refused one fails the request naming it (docs/images.md).
   */
  attachments: z.array(PromptAttachment).max(MAX_PROMPT_ATTACHMENTS).optional(),
});
export const PromptSubmitResult = z.object({
  prompt_id: z.string(),
  /** `started` ran at once; `queued` waits for the running turn. */
  status: z.enum(['started', 'queued']),
});

/**
 * `session.approvals.set`: the session's own approval mode over the profile's `approvals.mode`
 * (`null`: follow the profile again). A stricter mode applies at once, also to a running turn; a
 * looser one from the session's next turn (a running turn keeps what it started with). Attached
 * clients learn it from `session.info` (`approval_mode`, `approval_mode_own`). Kept while the
 * session is loaded in this daemon.
 */
export const SessionApprovalsSetParams = z.object({
  session_id: z.string().min(1),
  mode: ApprovalModeSchema.nullable(),
});
export const SessionApprovalsSetResult = z.object({
  /** The mode now in effect for the session's next check. */
  mode: ApprovalModeSchema,
  own: z.boolean(),
});

/**
 * `approval.answer`: answers an open approval request of a session this connection is attached to
 * (from a server request, a snapshot's `open_requests` or a replay). `choice` is checked by the
 * request's owner, not by the schema: a choice that was not offered (`"ONCE"` included) denies, as
 * a reply to `approval.request` would. `reason` (with `deny` only; checked by the owner too, so a
 * bad one denies): `no_approver` — this client has no one who could approve (headless), so the
 * model is told no one could approve it here instead of "the user denied".
 */
export const ApprovalAnswerParams = z.object({
  session_id: z.string().min(1),
  request_id: z.string().min(1),
  choice: z.string().max(64),
  reason: z.string().max(64).optional(),
});
/** The answer was the first: it applies. `by` is how `request.resolved` names the answerer. */
export const ApprovalAnswerResult = z.object({
  resolved: z.literal(true),
  by: z.string(),
  choice: ApprovalChoiceSchema,
});
/** `clarify.answer`: answers an open clarify request; `answer` null cancels the question. */
export const ClarifyAnswerParams = z.object({
  session_id: z.string().min(1),
  request_id: z.string().min(1),
  answer: z
    .string()
    .max(64 * 1024)
    .nullable(),
});
export const ClarifyAnswerResult = z.object({
  resolved: z.literal(true),
  by: z.string(),
  answer: z.string().nullable(),
});
/**
 * `error.data` of `-32003` from `approval.answer` / `clarify.answer`: who settled the request
 * first and with what (`choice` is the approval choice or the clarify answer); both null when
 * the daemon does not know the request (never asked, or settled too long ago to remember).
 */
export const RequestResolvedErrorData = z.object({
  by: z.string().nullable(),
  choice: z.string().nullable(),
});
export type RequestResolvedErrorData = z.infer<typeof RequestResolvedErrorData>;

export const SessionInterruptResult = z.object({ interrupted: z.boolean() });

export const ConfigGetParams = z.object({ profile: ProfileName.optional(), key: z.string().optional() });
export const ConfigGetResult = z.object({ value: z.unknown() });
export const ConfigSetParams = z.object({
  profile: ProfileName.optional(),
  key: z.string().min(1),
  value: z.unknown(),
});

export const ModelInfo = z.object({
  id: z.string(),
  provider: z.string(),
  context_window: z.number().int().positive().optional(),
});
export const ModelListParams = z.object({ profile: ProfileName.optional() });
/** One named provider for `/model` completion: id, aliases, whether it can be used, its known models. */
export const ProviderInfo = z.object({
  id: z.string(),
  label: z.string(),
  aliases: z.array(z.string()),
  kind: z.enum(['hosted', 'local', 'unsupported']),
  /** A key is set (never the key itself). */
  key_set: z.boolean(),
  /** The preset's short model list. */
  models: z.array(z.string()),
  /** Its model ids are `vendor/model` (OpenRouter …): there `/model vendor/model` stays its model. */
  aggregator: z.boolean().optional(),
});
export const ModelListResult = z.object({
  models: z.array(ModelInfo),
  current: z.string(),
  /** The provider in use (canonical id; for `auto`, the one it picks when it can). */
  provider: z.string().optional(),
  /** Every named provider, for completion of `/model provider/model`. */
  providers: z.array(ProviderInfo).optional(),
});
export const ModelSetParams = z.object({
  model: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s]+$/, 'a model id is one word without spaces or line breaks'),
  session_id: z.string().optional(),
  profile: ProfileName.optional(),
  /**
   * Provider to switch to (an id or alias). Absent: `model` may name one as `provider/model`
   * (see core/src/model/catalog.ts `parseModelSpec`), else the provider stays.
   */
  provider: z.string().min(1).max(64).optional(),
});
export const ModelSetResult = z.object({
  model: z.string(),
  /** The provider now configured (canonical id). */
  provider: z.string().optional(),
  /** What to show the user: the model and what it applies to (this session, new sessions), plus `warning`. */
  message: z.string().optional(),
  /** The provider lists its models and this id is not among them (the switch happened anyway). */
  warning: z.string().optional(),
});

export const ProfileInfo = z.object({
  name: z.string(),
  path: z.string(),
  active: z.boolean(),
  model: z.string().optional(),
  description: z.string().optional(),
  /** Set when the profile cannot be used now (damaged state.db): why, and how to recover. */
  unavailable: z.string().optional(),
});
export const ProfileListResult = z.object({ profiles: z.array(ProfileInfo), active: z.string() });

export const SlashExecParams = z.object({ session_id: z.string().min(1), command: z.string().min(1) });
export const SlashExecResult = z.object({
  /** Text to show the user. */
  output: z.string(),
  /** False when the daemon does not know the command. */
  handled: z.boolean(),
});

/** Name of a secret in a home's `.env`: an environment-variable name such as `OPENROUTER_API_KEY`. */
/** Variables that change how processes start; never settable as a secret. */
const PROCESS_CONTROL_VARS =
  /^(?:PATH|HOME|SHELL|USER|IFS|ENV|BASH_ENV|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PERL5LIB|PERL5OPT|RUBYOPT|LD_[A-Z0-9_]*|DYLD_[A-Z0-9_]*|HERMES_HOME|GIT_[A-Z0-9_]*)$/;
const SecretNameSyntax = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'not a valid secret name');
const SecretName = SecretNameSyntax.refine(
  (n) => !PROCESS_CONTROL_VARS.test(n),
  'this variable controls how programs start and cannot be set as a secret',
);
export const SecretsSetParams = z.object({
  profile: ProfileName.optional(),
  name: SecretName,
  /** Written to the profile's `.env` (mode 0600); never logged, never sent back. */
  value: z
    .string()
    .min(1)
    .max(8192)
    .regex(/^[^\r\n\0]*$/, 'must be one line'),
});
export const SecretsStatusParams = z.object({
  profile: ProfileName.optional(),
  names: z.array(SecretNameSyntax).min(1).max(32),
});
/** Which of the asked secrets have a value (in the profile's `.env` or the daemon's environment). */
export const SecretsStatusResult = z.object({ set: z.record(z.string(), z.boolean()) });

export const PingResult = z.object({ pong: z.literal(true), time: z.number() });

/** `gateway.status`: what `hermes gateway status` prints. */
export const GatewayStatusResult = z.object({
  pid: z.number().int(),
  port: z.number().int(),
  version: z.string(),
  epoch: z.string(),
  /** ISO time the daemon started. */
  started_at: z.string(),
  uptime_ms: z.number().nonnegative(),
  /** Live sessions in the daemon (from the session layer; 0 without one). */
  sessions_live: z.number().int().nonnegative(),
  /** Clients attached (initialized connections unless the session layer reports its own count). */
  clients_attached: z.number().int().nonnegative(),
  /** Initialized WebSocket connections, not counting the one asking. */
  connections: z.number().int().nonnegative(),
  /** True once shutdown began (draining). */
  shutting_down: z.boolean(),
  /** Messaging platforms of every served profile and their state; absent without any. */
  platforms: z
    .array(
      z.object({
        profile: z.string(),
        platform: z.string(),
        /** `starting` is what daemons before the reconnect schedule reported for `connecting`. */
        state: z.enum(['starting', 'connecting', 'connected', 'backing_off', 'failed', 'stopped']),
        /** Why it failed for good (one line). */
        error: z.string().optional(),
        /** The connect attempt running or waited for (1 = first since the last stable connection). */
        attempt: z.number().int().positive().optional(),
        /** ISO time of the next attempt (`backing_off`). */
        retry_at: z.string().optional(),
        /** Error of the last failed attempt or lost connection (one line). */
        last_error: z.string().optional(),
        /** ISO time of the last state change. */
        since: z.string(),
      }),
    )
    .optional(),
});

/** Method name → params and result schemas: the single source of the request surface. */
export const Methods = {
  initialize: { params: InitializeParams, result: InitializeResult },
  ping: { params: Empty.optional(), result: PingResult },
  'gateway.status': { params: Empty.optional(), result: GatewayStatusResult },
  'session.create': { params: SessionCreateParams, result: SessionCreateResult },
  'session.list': { params: SessionListParams, result: SessionListResult },
  'session.attach': { params: SessionAttachParams, result: SessionAttachResult },
  'session.detach': { params: SessionRef, result: Ok },
  'session.close': { params: SessionRef, result: Ok },
  'session.history': { params: SessionHistoryParams, result: SessionHistoryResult },
  'session.events.since': { params: SessionEventsSinceParams, result: SessionEventsSinceResult },
  'prompt.submit': { params: PromptSubmitParams, result: PromptSubmitResult },
  'session.interrupt': { params: SessionRef, result: SessionInterruptResult },
  'session.approvals.set': { params: SessionApprovalsSetParams, result: SessionApprovalsSetResult },
  ...ConversationMethods,
  'approval.answer': { params: ApprovalAnswerParams, result: ApprovalAnswerResult },
  'clarify.answer': { params: ClarifyAnswerParams, result: ClarifyAnswerResult },
  'config.get': { params: ConfigGetParams, result: ConfigGetResult },
  'config.set': { params: ConfigSetParams, result: Ok },
  'model.list': { params: ModelListParams, result: ModelListResult },
  'model.set': { params: ModelSetParams, result: ModelSetResult },
  'profile.list': { params: Empty.optional(), result: ProfileListResult },
  'slash.exec': { params: SlashExecParams, result: SlashExecResult },
  'secrets.set': { params: SecretsSetParams, result: Ok },
  'secrets.status': { params: SecretsStatusParams, result: SecretsStatusResult },
  'cron.list': { params: CronListParams, result: CronListResult },
  'cron.pause': { params: CronJobRef, result: CronJobResult },
  'cron.resume': { params: CronJobRef, result: CronJobResult },
  'cron.run': { params: CronJobRef, result: CronRunResult },
  'cron.output': { params: CronJobRef, result: CronOutputResult },
  'process.list': { params: ProcessListParams, result: ProcessListResult },
  'process.kill': { params: ProcessKillParams, result: ProcessKillResult },
  'files.complete': { params: FilesCompleteParams, result: FilesCompleteResult },
  'status.subscribe': { params: StatusSubscribeParams, result: StatusSubscribeResult },
  'heartbeat.add': { params: HeartbeatAddParams, result: HeartbeatResult },
  'heartbeat.list': { params: HeartbeatListParams, result: HeartbeatListResult },
  'heartbeat.remove': { params: HeartbeatRemoveParams, result: HeartbeatResult },
} as const;

export type MethodName = keyof typeof Methods;
export type MethodParams<M extends MethodName> = z.input<(typeof Methods)[M]['params']>;
export type MethodResult<M extends MethodName> = z.infer<(typeof Methods)[M]['result']>;
