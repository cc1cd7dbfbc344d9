/**
 * In-process test kit for the session layer: live sessions behind the real dispatcher and the
 * real session handlers, reached by fake clients over real `WsConnection`s whose socket is a
 * recorder. A test sees exactly the frames a client would (responses, `event` notifications,
 * server requests) and answers server requests with response frames, as a client does. The
 * agent is scripted: each turn waits until the test makes it stream, ask or end.
 *
 * Nothing here waits on wall-clock time: `settle` and `until` run the event loop for a bounded
 * number of turns (outbound frames are flushed with `setImmediate`), so tests may fake
 * `setTimeout`/`Date` (approval deadlines) while frames keep flowing.
 * Kept out of tui-gateway's build (tui-gateway/tsconfig.json).
 */
import type { WebSocket } from 'ws';
import {
  RpcErrorCode,
  type MethodName,
  type MethodResult,
  type QueuedPrompt,
  type EventType,
  type WireEvent,
  type WireEventOf,
} from '@hermes/core/protocol';
import type { MessageRecord, QueuedPromptRecord, SessionRecord } from '@hermes/core/state';
import { silentLogger } from '../lifecycle/logger.js';
import { Dispatcher } from '../rpc/dispatcher.js';
import { RpcMethodError, type Connection, type HandlerParams } from '../rpc/types.js';
import { WsConnection } from '../transport/connection.js';
import { DEFAULT_OUTBOUND_LIMITS } from '../transport/outbound-queue.js';
import {
  LiveSession,
  type AgentHooks,
  type SessionAgent,
  type SessionPersistence,
  type LiveSessionOptions,
} from './live-session.js';
import { RingBudget } from './replay-ring.js';
import { registerSessionHandlers } from './session-handlers.js';
import type { SessionRegistry } from './session-registry.js';

/** Event-loop turns `until` waits for its condition before it throws. */
export const UNTIL_MAX_TURNS = 2_000;

/** Runs the event loop for `turns` turns (`setImmediate`, never faked by these tests). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Resolves once `cond()` is true, checking after every event-loop turn.
 * @throws Error naming `what` after `UNTIL_MAX_TURNS` turns without it.
 */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < UNTIL_MAX_TURNS; i++) {
    if (cond()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`not reached within ${UNTIL_MAX_TURNS} event-loop turns: ${what}`);
}

/** The session store of a live session, in memory: one session record and its prompt queue. */
export class MemoryStore {
  readonly record: SessionRecord;
  /** Stored queue rows, in order. */
  readonly rows: QueuedPromptRecord[] = [];
  /** Every `setSessionState` call, in order. */
  readonly states: string[] = [];

  constructor(id: string) {
    this.record = {
      id,
      source: 'tui',
      title: null,
      model: 'fake-model',
      cwd: '/tmp',
      started_at: 1,
      ended_at: null,
      end_reason: null,
      parent_session_id: null,
      message_count: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      state: 'active',
      updated_at: 1,
    };
  }

  getSession = (id: string): SessionRecord | undefined => (id === this.record.id ? this.record : undefined);
  getMessages = (): [] => [];
  setSessionState = (_id: string, state: string): void => {
    this.states.push(state);
    this.record.state = state;
  };
  moveQueuedPrompts = (): void => {};
  queuePrompt = (sessionId: string, p: { promptId: string; text: string; by?: string }): void => {
    this.rows.push({
      prompt_id: p.promptId,
      session_id: sessionId,
      text: p.text,
      queued_by: p.by ?? null,
      origin: null,
      queued_at: 0,
    });
  };
  unqueuePrompt = (promptId: string): boolean => {
    const i = this.rows.findIndex((r) => r.prompt_id === promptId);
    if (i >= 0) this.rows.splice(i, 1);
    return i >= 0;
  };
  queuedPrompts = (): QueuedPromptRecord[] => [...this.rows];
}

/** One running turn of the scripted agent; the test drives it. */
export interface ScriptedTurn {
  readonly text: string;
  readonly signal: AbortSignal;
  /** Streams one `message.delta`. */
  delta(text: string): void;
  /** Asks for approval of `command` (choices once/session/always/deny); resolves with the answer. */
  approval(command: string): Promise<{ choice: string; by: string }>;
  /** Asks a clarify question; resolves with the answer, rejects when it is cancelled or times out. */
  clarify(question: string, choices?: string[]): Promise<string>;
  /** Ends the turn with `status` (default `complete`). */
  end(status?: string): void;
  /** A step boundary: takes the guidance given meanwhile (`/steer`), as the agent loop does. */
  boundary(): string[];
}

/**
 * An agent whose turns are played by the test: every `runTurn` becomes a `ScriptedTurn` that
 * ends when the test calls `end` (or its signal aborts: status `interrupted`).
 */
export class ScriptedAgent {
  /** Prompt texts of the turns started so far, in order. */
  readonly started: string[] = [];
  /** Every `replaceHistory` call: the stored messages given (a transcript edit). */
  readonly replaced: MessageRecord[][] = [];
  private hooks: AgentHooks | undefined;
  private readonly waiting: ScriptedTurn[] = [];
  private readonly takers: Array<(t: ScriptedTurn) => void> = [];

  /** The `createAgent` of a LiveSession. */
  readonly create = (hooks: AgentHooks): SessionAgent => {
    this.hooks = hooks;
    return {
      runTurn: (text, signal, opts) => this.run(text, signal, opts?.takeGuidance),
      replaceHistory: (records) => void this.replaced.push(records),
    };
  };

  /** The next turn the session starts (already started or the next one). */
  nextTurn(): Promise<ScriptedTurn> {
    const t = this.waiting.shift();
    if (t) return Promise.resolve(t);
    return new Promise((r) => this.takers.push(r));
  }

  private run(
    text: string,
    signal: AbortSignal,
    takeGuidance?: () => string[],
  ): Promise<{ status: string; text: string }> {
    const hooks = this.hooks!;
    this.started.push(text);
    let reply = '';
    return new Promise((resolve) => {
      const finish = (status: string): void => resolve({ status, text: reply });
      signal.addEventListener('abort', () => finish('interrupted'), { once: true });
      const turn: ScriptedTurn = {
        text,
        signal,
        delta: (t) => {
          reply += t;
          hooks.onEvent({ type: 'message.delta', payload: { text: t } });
        },
        approval: async (command) => {
          const a = await hooks.onApproval(
            {
              requestId: `r-${command}`,
              sessionId: '',
              command,
              description: `run ${command}`,
              patternKeys: [],
              allows: [],
              choices: ['once', 'session', 'always', 'deny'],
            },
            signal,
          );
          return typeof a === 'string' ? { choice: a, by: '' } : { choice: a.choice, by: a.by ?? '' };
        },
        clarify: (question, choices) =>
          hooks.onClarify({ question, ...(choices ? { choices } : {}) }, signal),
        end: (status = 'complete') => finish(status),
        boundary: () => takeGuidance?.() ?? [],
      };
      const taker = this.takers.shift();
      if (taker) taker(turn);
      else this.waiting.push(turn);
    });
  }
}

/** A frame the daemon sent a fake client, parsed. */
export interface SentFrame {
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A server request a fake client received. */
export interface ReceivedRequest {
  id: string;
  method: string;
  params: Record<string, unknown>;
}

/** The recording socket under a fake client's `WsConnection`. */
function recordingSocket(onFrame: (data: string) => void): WebSocket {
  return {
    bufferedAmount: 0,
    readyState: 1,
    OPEN: 1,
    CLOSED: 3,
    send: (data: string, cb: (err?: Error) => void) => {
      onFrame(data);
      cb();
    },
    close: () => {},
    terminate: () => {},
    once: () => {},
  } as unknown as WebSocket;
}

/**
 * A bare connection for tests that drive a `LiveSession` directly: client `test` in profile
 * `default` with approvals; `notify` hands each event to `onEvent` (default: dropped), and server
 * requests never settle.
 */
export function stubConnection(id = 'c-1', onEvent: (e: WireEvent) => void = () => {}): Connection {
  return {
    id,
    clientName: 'test',
    capabilities: { approvals: true },
    profile: 'default',
    closed: false,
    notify: onEvent,
    request: () => new Promise(() => {}),
    onClose: () => {},
  };
}

/** A session store that holds nothing: no sessions, no messages, an empty prompt queue; writes are ignored. */
export function emptyStore(): SessionPersistence {
  return {
    getSession: () => undefined,
    getMessages: () => [],
    setSessionState: () => {},
    moveQueuedPrompts: () => {},
    queuePrompt: () => {},
    unqueuePrompt: () => true,
    queuedPrompts: () => [],
  };
}

/**
 * A live session for tests that drive one directly: session `s1` of profile `default`, epoch `e`,
 * approvals that time out after 300 s, a replay budget of its own; `opts` replaces any of these.
 */
export function bareLiveSession(
  store: SessionPersistence,
  createAgent: LiveSessionOptions['createAgent'],
  opts: Partial<LiveSessionOptions> = {},
): LiveSession {
  return new LiveSession({
    id: 's1',
    profile: 'default',
    store,
    createAgent,
    approvalTimeoutS: 300,
    budget: new RingBudget(),
    epoch: 'e',
    ...opts,
  });
}

/**
 * The `initialize` answer of a test dispatcher: marks the connection initialized in profile
 * `default` and answers as server `test`, epoch `epoch-1`.
 */
export function acceptInitialize(
  params: HandlerParams<'initialize'>,
  conn: Connection,
): MethodResult<'initialize'> {
  (conn as WsConnection).markInitialized(params, 'default');
  return {
    server: { name: 'test', version: '0' },
    epoch: 'epoch-1',
    connection_id: conn.id,
    profile: 'default',
    profiles: ['default'],
  };
}

/** A client of the in-process daemon: what it was sent, and what it can send. */
export class FakeClient {
  /** Every frame received, in order. */
  readonly frames: SentFrame[] = [];
  readonly conn: WsConnection;
  private nextId = 1;

  constructor(
    private readonly dispatcher: Dispatcher,
    id: string,
  ) {
    this.conn = new WsConnection(
      recordingSocket((data) => this.frames.push(JSON.parse(data) as SentFrame)),
      id,
      DEFAULT_OUTBOUND_LIMITS,
      silentLogger,
    );
  }

  /** The `event` notifications received, in order. */
  get events(): WireEvent[] {
    return this.frames.filter((f) => f.method === 'event').map((f) => f.params as WireEvent);
  }

  /** The server requests received (approval.request, clarify.request), in order. */
  get serverRequests(): ReceivedRequest[] {
    return this.frames
      .filter((f) => f.method !== undefined && f.method !== 'event' && f.id !== undefined)
      .map((f) => ({ id: String(f.id), method: f.method!, params: f.params as Record<string, unknown> }));
  }

  /** Events of `type` received, in order. */
  eventsOf<K extends EventType>(type: K): WireEventOf<K>[] {
    return this.events.filter((e): e is WireEventOf<K> => e.type === type);
  }

  /** Sends a frame as the client would. */
  send(frame: object): void {
    this.dispatcher.handleFrame(this.conn, Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...frame })), false);
  }

  /**
   * Sends a request frame (any method, any params) and resolves with the daemon's answer frame.
   * @param id the request id (default: the next number).
   */
  async raw(method: string, params?: unknown, id: string | number = this.nextId++): Promise<SentFrame> {
    this.send({ id, method, ...(params === undefined ? {} : { params }) });
    return this.answerTo(id, method);
  }

  /** Resolves with the answer frame (result or error) to the request `id` this client sent. */
  async answerTo(id: string | number, what = 'a request'): Promise<SentFrame> {
    let reply: SentFrame | undefined;
    await until(() => {
      reply = this.frames.find((f) => f.id === id && f.method === undefined);
      return reply !== undefined;
    }, `the answer to ${what} (id ${id})`);
    return reply!;
  }

  /**
   * Calls a method and resolves with its result.
   * @throws the JSON-RPC error object (`{code, message, data}`) when the daemon answers with one.
   */
  async call<M extends MethodName>(method: M, params: object): Promise<MethodResult<M>> {
    const reply = await this.raw(method, params);
    if (reply.error) throw reply.error;
    return reply.result as MethodResult<M>;
  }

  /** Answers a server request with a result (`{choice}` / `{answer}`). */
  reply(request: ReceivedRequest, result: unknown): void {
    this.send({ id: request.id, result });
  }

  /** Closes the connection (the socket went away). */
  close(): void {
    this.conn.markClosed('test: client went away');
  }
}

/** Options of `sessionHarness`. */
export interface HarnessOptions {
  /** Seconds an approval/clarify question waits (default 60). */
  approvalTimeoutS?: number;
  /** Shared replay byte budget (default: the daemon's); a small one truncates replay. */
  budget?: RingBudget;
}

/**
 * One live session (`s-1`, profile `default`) with a scripted agent, behind the real dispatcher
 * and session handlers. `client()` connects and initializes a fake client.
 */
export function sessionHarness(opts: HarnessOptions = {}) {
  const store = new MemoryStore('s-1');
  const agent = new ScriptedAgent();
  const live = new LiveSession({
    id: store.record.id,
    profile: 'default',
    store,
    createAgent: agent.create,
    approvalTimeoutS: opts.approvalTimeoutS ?? 60,
    budget: opts.budget ?? new RingBudget(),
    epoch: 'epoch-1',
  });
  // the registry as the handlers of attach/detach/submit/interrupt/answer use it: one session
  const registry = {
    isDraining: false,
    get: (_profile: string, id: string) => {
      if (id !== live.id) throw new RpcMethodError(RpcErrorCode.SessionNotFound, `no session "${id}"`);
      return live;
    },
    peek: (_profile: string, id: string) => (id === live.id ? live : undefined),
    profile: () => ({ db: store }),
    unload: () => {},
  } as unknown as SessionRegistry;
  const dispatcher = new Dispatcher({
    log: silentLogger,
    maxFrameBytes: 1024 * 1024,
    validateResults: true,
    initialize: async (p, conn) => acceptInitialize(p, conn),
  });
  registerSessionHandlers(dispatcher, registry);
  let clients = 0;

  /**
   * Connects and initializes a client.
   * @param caps what it answers (default approvals and clarify).
   */
  async function client(
    name = `client-${clients + 1}`,
    caps: { approvals: boolean; clarify?: boolean } = { approvals: true, clarify: true },
  ): Promise<FakeClient> {
    const c = new FakeClient(dispatcher, `c-${++clients}`);
    await c.call('initialize', { client: { name, version: '1' }, capabilities: caps });
    return c;
  }

  /** `session.attach` of the harness session. */
  const attach = (c: FakeClient, extra: { since_seq?: number } = {}) =>
    c.call('session.attach', { session_id: live.id, ...extra });

  /** `prompt.submit` to the harness session. */
  const submit = (c: FakeClient, text: string) => c.call('prompt.submit', { session_id: live.id, text });

  return { live, store, agent, dispatcher, client, attach, submit };
}

/** Prompt texts of a queue listing. */
export const texts = (q: QueuedPrompt[]): string[] => q.map((p) => p.text);
