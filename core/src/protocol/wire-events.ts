/**
 * Events as they travel on the wire: `{"jsonrpc":"2.0","method":"event","params":{type,
 * session_id, seq, ts, payload}}`. `seq` is per session, strictly increasing, never reused while
 * the daemon lives. Agent events (events.ts) plus the session-level ones here.
 */
import { z } from 'zod';

export { EVENT_NOTIFICATION } from './constants.js';
import { ConversationEventPayloads } from './conversation.js';
import { CronChangedPayload } from './cron.js';
import { AgentEventPayloads } from './events.js';
import { McpStatusPayload } from './mcp.js';
import { ProcessChangedPayload } from './processes.js';
import { StatusChangedPayload } from './status.js';
import { AttachmentInfo } from './attachments.js';
import { QueuedPrompt, SessionInfo } from './records.js';
import { ApprovalChoiceSchema, RequestKindSchema } from './server-requests.js';

/**
 * `config.changed` (session_id `*`): a profile's config.yaml or `.env` changed on disk (or
 * through `config.set`/`model.set`/`secrets.set`), or config.yaml was edited into something
 * unusable. Secrets are never in it.
 */
export const ConfigChangedPayload = z.object({
  profile: z.string(),
  /** Files whose new content is now in use: `config.yaml`, `.env`. Empty when only `error` changed. */
  files: z.array(z.string()),
  /** `model.default` of the config in use after the change, when set. */
  model: z.string().optional(),
  /** config.yaml on disk is broken: the last good config stays in use until it is fixed. */
  error: z.object({ file: z.string(), key: z.string().optional(), message: z.string() }).optional(),
  /**
   * Approval settings the change loosened (a mode that asks less, a longer timeout, cron_mode
   * allow, another smart reviewer, entries added to `command_allowlist` or
   * `terminal.env_passthrough`, a looser `terminal.sandbox`, `terminal.network` on,
   * `terminal.sandbox_fallback` ask): dotted key, old and new value, and `by` when a client's
   * `config.set` asked for it (absent: changed outside Hermes — a hand edit, `hermes config set`,
   * a command the agent ran). A running turn keeps its settings; they apply from the next turn.
   * An `always` approval answer is not listed. Absent when nothing was loosened.
   */
  loosened: z
    .array(z.object({ key: z.string(), from: z.unknown(), to: z.unknown(), by: z.string().optional() }))
    .optional(),
});

/** Session-level events emitted by the daemon (not by the agent loop). */
export const SessionEventPayloads = {
  /** Session metadata changed (title, model, clients attached, state). */
  'session.info': z.object({ session: SessionInfo }),
  /** A turn began on this user prompt; every client shows the user message from it. */
  'turn.start': z.object({
    prompt_id: z.string(),
    text: z.string(),
    by: z.string().optional(),
    /** The prompt's `origin` (prompt.submit), when it has one. */
    origin: z.string().optional(),
    /** What is attached to the prompt (images …), for chips; absent when nothing. */
    attachments: z.array(AttachmentInfo).optional(),
  }),
  /** The turn ended. */
  'turn.end': z.object({ prompt_id: z.string(), status: z.string(), origin: z.string().optional() }),
  /**
   * The queue of prompts waiting for the running turn changed; `dropped` names the prompts taken
   * out without running (`/queue drop`, or taken back by the platform that submitted them).
   */
  'prompt.queued': z.object({ queued: z.array(QueuedPrompt), dropped: z.array(z.string()).optional() }),
  /** A server request was answered (by a client, a timeout or an interrupt); clients drop it. */
  'request.resolved': z.object({
    request_id: z.string(),
    /** `approval` or `clarify`. */
    kind: RequestKindSchema,
    /** The approval choice, or the clarify answer (null: cancelled). */
    choice: z.union([ApprovalChoiceSchema, z.string()]).nullable(),
    /**
     * Who settled it: `client:<instance_id>` or `connection:<id>` (a client's answer), `timeout`,
     * `interrupt`, `unload`, `shutdown`, or a platform's name.
     */
    by: z.string(),
  }),
  /** The daemon is shutting down; clients should reconnect later. session_id is `*`. */
  'gateway.shutdown': z.object({ reason: z.string(), drain_timeout_ms: z.number() }),
  /** Cron jobs of a profile changed (created, edited, claimed, ran …). session_id is `*`. */
  'cron.changed': CronChangedPayload,
  /** A profile's config or secrets changed, or its config.yaml broke. session_id is `*`. */
  'config.changed': ConfigChangedPayload,
  /** One of a profile's MCP servers changed state (ready, backing off, failed …). session_id is `*`. */
  'mcp.status': McpStatusPayload,
  /** A background process of a profile started, ended, was adopted or is being stopped. session_id is `*`. */
  'process.changed': ProcessChangedPayload,
  /** Rows of the daemon-wide status feed changed (only to `status.subscribe` callers). session_id is `*`. */
  'status.changed': StatusChangedPayload,
  ...ConversationEventPayloads,
} as const;

/**
 * Every event payload schema by type: the one table of the protocol's events. The daemon's emit
 * is typed from it (a wrong name or payload does not compile), tests check every emitted payload
 * against it (event-check.ts), and clients match `WireEvent` over it.
 */
export const EventPayloads = { ...AgentEventPayloads, ...SessionEventPayloads } as const;
/** Names of every event of the protocol. */
export type EventType = keyof typeof EventPayloads;
/** Payload type of the event named `K`. */
export type EventPayload<K extends EventType> = z.infer<(typeof EventPayloads)[K]>;

/**
 * Params of one `event` notification as parsed without knowing its type: `payload` is any
 * object. For checking the envelope of what arrives; code that reads events uses `WireEvent`.
 */
export const WireEventEnvelope = z.object({
  type: z.string(),
  session_id: z.string(),
  seq: z.number().int().nonnegative(),
  /** Epoch ms when the daemon emitted it. */
  ts: z.number().optional(),
  payload: z.record(z.string(), z.unknown()),
});
export type WireEventEnvelope = z.infer<typeof WireEventEnvelope>;

/** The `event` notification of type `K`: its payload typed from `EventPayloads`. */
interface EventNotification<K extends EventType> {
  type: K;
  /** The session it belongs to, or `*` for daemon-wide events (config, cron, MCP, shutdown). */
  session_id: string;
  /** Per session, strictly increasing; 0 for daemon-wide events. */
  seq: number;
  /** Epoch ms when the daemon emitted it. */
  ts?: number;
  payload: EventPayload<K>;
}

/**
 * One `event` notification: a discriminated union over `type`, so `switch (ev.type)` narrows the
 * payload. A daemon newer than the client may send a type missing here: clients ignore it (and
 * log it once), see docs/protocol.md "Events".
 */
export type WireEvent = { [K in EventType]: EventNotification<K> }[EventType];

/** The members of `WireEvent` whose type is in `K` (one type, or a union of them). */
export type WireEventOf<K extends EventType> = Extract<WireEvent, { type: K }>;

/**
 * `ev` as an event of type `type`, for code that found it by other means (a test's wait).
 * @throws Error when `ev` is of another type.
 */
export function eventOf<K extends EventType>(ev: WireEvent, type: K): WireEventOf<K> {
  if (ev.type !== type) throw new Error(`expected a ${type} event, got ${ev.type}`);
  return ev as WireEventOf<K>;
}

/**
 * The envelope schema typed as `WireEvent`, for result schemas that carry events (`events` of a
 * replay, `session.events.since`): it checks the envelope only, like a live notification, and the
 * generated JSON Schema is the envelope's.
 */
export const WireEventSchema = WireEventEnvelope as unknown as z.ZodType<WireEvent, WireEventEnvelope>;
