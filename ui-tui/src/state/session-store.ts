/**
 * The session reducer: a plain function from (state, action) to state, testable without Ink.
 * It applies a `session.attach` result (snapshot or replay), then live events in seq order,
 * dropping duplicates (seq ≤ last seen), and keeps a bounded window of finished items.
 */
import {
  APPROVAL_CHOICES,
  type SessionInfo,
  type StoredMessage,
  type WireEvent,
} from '@hermes/core/protocol';
import type { AttachResult, ConnectionState } from '@hermes/client';
import { assistantDraft, errorDraft, loosenedNotices, resolutionDraft, toolDraft } from './event-items.js';
import { draftsFromHistory, newDraftsAfter } from './history-items.js';
import { appendItems, applyOlder, oldestAfterSnapshot } from './transcript-window.js';
import type { OpenRequestView, RunningToolView, SessionState } from './types.js';

export { appendItems, MAX_ITEMS } from './transcript-window.js';
export { describeResolution } from './event-items.js';

const MAX_SEEN_REQUESTS = 50;

/** What can happen to the session view. */
export type SessionAction =
  | { type: 'connection'; state: ConnectionState }
  /** The daemon's life (client/daemon-keeper.ts); a daemon known gone ends the turn on screen. */
  | { type: 'daemon'; status: SessionState['daemon'] }
  | { type: 'connected'; connectionId: string; profile: string; instanceId?: string }
  | { type: 'attach'; result: AttachResult; now: number }
  | { type: 'event'; event: WireEvent; now: number }
  | { type: 'request'; request: OpenRequestView }
  | { type: 'request.answered'; requestId: string }
  /** This client's answer came too late (-32003): another client, the timeout or an interrupt won. */
  | { type: 'request.settled'; requestId: string; kind: 'approval' | 'clarify'; choice: unknown; by: string }
  | { type: 'notice'; text: string; tone?: 'info' | 'warn' | 'error' }
  | { type: 'clear' }
  | { type: 'model'; model: string | null }
  | { type: 'setup'; setup: { profile: string } | null }
  | { type: 'older'; messages: StoredMessage[]; hasMore: boolean }
  | { type: 'detached' };

/** The state before anything is attached. */
export function initialSessionState(): SessionState {
  return {
    sessionId: null,
    session: null,
    epoch: null,
    lastSeq: -1,
    items: [],
    nextN: 0,
    hasMore: false,
    oldestMessageId: null,
    streaming: null,
    tools: [],
    queued: [],
    requests: [],
    seenRequests: [],
    busy: false,
    activity: null,
    activityText: null,
    turnStartedAt: null,
    usage: null,
    connection: 'disconnected',
    daemon: 'ok',
    connectionId: null,
    instanceId: null,
    profile: null,
    lastReply: null,
    defaultModel: null,
    setup: null,
  };
}

/** Reduces one action. */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: action.state };
    case 'daemon':
      // the daemon that ran the turn is gone: nothing responds any more, the timer stops (the
      // kept text stays in the live part until the next daemon's snapshot prints it as stored)
      return action.status === 'ok'
        ? { ...state, daemon: 'ok' }
        : {
            ...state,
            daemon: action.status,
            busy: false,
            activity: null,
            activityText: null,
            turnStartedAt: null,
            tools: [],
          };
    case 'connected':
      return {
        ...state,
        connectionId: action.connectionId,
        profile: action.profile,
        ...(action.instanceId ? { instanceId: action.instanceId } : {}),
      };
    case 'attach':
      return applyAttach(state, action.result, action.now);
    case 'event':
      return applyEvent(state, action.event, action.now);
    case 'request':
      return addRequest(state, action.request);
    case 'request.answered':
      return { ...state, requests: state.requests.filter((r) => r.requestId !== action.requestId) };
    case 'request.settled':
      return resolveRequest(state, action.requestId, action.kind, action.choice, action.by);
    case 'notice':
      return appendItems(state, [{ kind: 'notice', text: action.text, tone: action.tone ?? 'info' }]);
    case 'clear':
      return { ...state, items: [] };
    case 'model':
      return { ...state, defaultModel: action.model };
    case 'setup':
      return { ...state, setup: action.setup };
    case 'older':
      return applyOlder(state, action.messages, action.hasMore);
    case 'detached':
      return {
        ...initialSessionState(),
        nextN: state.nextN,
        items: state.items,
        connection: state.connection,
        daemon: state.daemon,
        connectionId: state.connectionId,
        instanceId: state.instanceId,
        profile: state.profile,
        lastReply: state.lastReply,
        defaultModel: state.defaultModel,
        setup: state.setup,
      };
  }
}

function addRequest(state: SessionState, req: OpenRequestView): SessionState {
  const seen = state.seenRequests.includes(req.requestId)
    ? state.seenRequests
    : [...state.seenRequests, req.requestId].slice(-MAX_SEEN_REQUESTS);
  if (state.requests.some((r) => r.requestId === req.requestId)) return { ...state, seenRequests: seen };
  return { ...state, requests: [...state.requests, req], seenRequests: seen };
}

/** Converts a protocol open request (snapshot) to the view, or null when malformed. */
export function requestView(
  kind: string,
  requestId: string,
  params: Record<string, unknown>,
): OpenRequestView | null {
  if (kind === 'approval' && typeof params.command === 'string') {
    return {
      requestId,
      kind: 'approval',
      params: {
        command: params.command,
        description: typeof params.description === 'string' ? params.description : '',
        choices: Array.isArray(params.choices) ? params.choices.map(String) : [...APPROVAL_CHOICES],
        ...(Array.isArray(params.allows) ? { allows: params.allows.map(String) } : {}),
        ...(typeof params.expires_at === 'number' ? { expires_at: params.expires_at } : {}),
      },
    };
  }
  if (kind === 'clarify' && typeof params.question === 'string') {
    return {
      requestId,
      kind: 'clarify',
      params: {
        question: params.question,
        ...(Array.isArray(params.choices) ? { choices: params.choices.map(String) } : {}),
        ...(typeof params.expires_at === 'number' ? { expires_at: params.expires_at } : {}),
      },
    };
  }
  return null;
}

function openRequests(list: AttachResult['open_requests']): OpenRequestView[] {
  return list.flatMap((r) => {
    const v = requestView(r.kind, r.request_id, r.params);
    return v ? [v] : [];
  });
}

function sessionFields(session: SessionInfo): Partial<SessionState> {
  return { session, sessionId: session.id, profile: session.profile };
}

function applyAttach(state: SessionState, result: AttachResult, now: number): SessionState {
  const sameSession = state.sessionId === result.session.id;
  if (result.kind === 'replay') {
    let s: SessionState = { ...state, ...sessionFields(result.session), epoch: result.epoch };
    for (const ev of result.events) s = applyEvent(s, ev, now);
    const requests = openRequests(result.open_requests);
    const seen = [...new Set([...s.seenRequests, ...requests.map((r) => r.requestId)])].slice(
      -MAX_SEEN_REQUESTS,
    );
    return { ...s, requests, seenRequests: seen, lastSeq: Math.max(s.lastSeq, result.seq) };
  }
  const drafts = draftsFromHistory(result.messages, result.inflight, state);
  const inflight = result.inflight;
  const requests = openRequests(result.open_requests);
  let s: SessionState = {
    ...state,
    ...sessionFields(result.session),
    epoch: result.epoch,
    lastSeq: result.seq,
    ...oldestAfterSnapshot(state, result, sameSession),
    // a turn can run with no message streaming (tools, approvals): no empty live row then
    streaming:
      inflight && (inflight.text || inflight.reasoning)
        ? { text: inflight.text, reasoning: inflight.reasoning }
        : null,
    tools: (inflight?.tools ?? []).map((t) => ({
      toolId: t.tool_id,
      name: t.name,
      args: t.args,
      ...(t.summary !== undefined ? { summary: t.summary } : {}),
      startedAt: t.started_at,
    })),
    queued: result.queued,
    requests,
    seenRequests: requests.map((r) => r.requestId),
    busy: result.session.busy ?? inflight !== null,
    activity: inflight?.text ? respondingAfter(inflight.status) : (inflight?.status ?? null),
    activityText: null,
    turnStartedAt: inflight?.started_at ?? null,
    // the daemon's last usage of this session: the context gauge shows at once after an attach
    ...(result.usage
      ? {
          usage: {
            totalTokens: result.usage.total_tokens,
            contextTokens: result.usage.context_tokens,
            contextWindow: result.usage.context_window,
          },
        }
      : sameSession
        ? {}
        : { usage: null }),
  };
  if (!sameSession) {
    // A different session: its history follows what is already printed (nothing is erased).
    return appendItems({ ...s, items: [] }, drafts);
  }
  const { fresh, gap } = newDraftsAfter(state.items, drafts);
  if (gap && state.items.length > 0) {
    s = appendItems(s, [
      { kind: 'notice', text: 'Reconnected: some earlier messages are not shown here.', tone: 'warn' },
    ]);
  }
  return appendItems(s, fresh);
}

/** The activity of an in-flight turn that has streamed text: `responding` instead of `thinking`. */
function respondingAfter(activity: string | null | undefined): string {
  return !activity || activity === 'thinking' ? 'responding' : activity;
}

/**
 * The running tools as the live part shows them: the one an open approval request is about is
 * marked `awaitingApproval` (it has not started). Matched by its command, or the only one running.
 */
export function runningToolsView(state: Pick<SessionState, 'tools' | 'requests'>): RunningToolView[] {
  const commands = new Set(state.requests.flatMap((r) => (r.kind === 'approval' ? [r.params.command] : [])));
  if (commands.size === 0) return state.tools;
  const byCommand = (t: RunningToolView): boolean =>
    typeof t.args.command === 'string' && commands.has(t.args.command);
  const matched = state.tools.some(byCommand);
  return state.tools.map((t) =>
    byCommand(t) || (!matched && state.tools.length === 1) ? { ...t, awaitingApproval: true } : t,
  );
}

/** `{blocked: reason}` from a `tool.complete` payload's `blocked: {reason}`; empty without one. */
function blockedReason(v: unknown): { blocked?: string } {
  const reason = (v as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? { blocked: reason } : {};
}

function applyEvent(state: SessionState, ev: WireEvent, now: number): SessionState {
  if (ev.type === 'gateway.shutdown') {
    const reason = typeof ev.payload.reason === 'string' ? ev.payload.reason : 'shutdown';
    return appendItems(state, [
      { kind: 'notice', text: `The daemon is shutting down (${reason}).`, tone: 'warn' },
    ]);
  }
  if (ev.type === 'config.changed') {
    // a loosened approval setting of this profile: every TUI of it warns (session_id is `*`)
    const mine = state.profile === null || ev.payload.profile === state.profile;
    const lines = mine ? loosenedNotices(ev.payload.loosened) : [];
    return lines.length > 0 ? appendItems(state, lines) : state;
  }
  if (ev.session_id !== state.sessionId || ev.seq <= state.lastSeq) return state;
  const s: SessionState = { ...state, lastSeq: ev.seq };
  const p = ev.payload;
  const at = ev.ts ?? now;
  const str = (k: string): string => (typeof p[k] === 'string' ? (p[k] as string) : '');
  switch (ev.type) {
    case 'session.info': {
      const session = p.session as SessionInfo | undefined;
      return session ? { ...s, session, ...(session.busy !== undefined ? { busy: session.busy } : {}) } : s;
    }
    case 'turn.start': {
      const promptId = str('prompt_id');
      const next: SessionState = {
        ...s,
        busy: true,
        turnStartedAt: at,
        streaming: null,
        tools: [],
        activity: 'thinking',
        activityText: null,
        queued: s.queued.filter((q) => q.prompt_id !== promptId),
      };
      return appendItems(next, [{ kind: 'user', text: str('text'), ...(p.by ? { by: str('by') } : {}) }]);
    }
    case 'turn.end':
      return {
        ...s,
        busy: false,
        turnStartedAt: null,
        streaming: null,
        tools: [],
        activity: null,
        activityText: null,
      };
    case 'prompt.queued':
      return { ...s, queued: Array.isArray(p.queued) ? (p.queued as SessionState['queued']) : [] };
    case 'message.start':
      return { ...s, streaming: { text: '', reasoning: '' } };
    case 'message.delta':
      return {
        ...s,
        streaming: { text: (s.streaming?.text ?? '') + str('text'), reasoning: s.streaming?.reasoning ?? '' },
        // text arriving means the model answers now, whatever the last status said
        activity: str('text') ? 'responding' : s.activity,
      };
    case 'reasoning.delta':
      return {
        ...s,
        streaming: { text: s.streaming?.text ?? '', reasoning: (s.streaming?.reasoning ?? '') + str('text') },
        activity: s.activity === 'responding' ? 'thinking' : s.activity,
      };
    case 'message.complete': {
      const status = str('status');
      // a failed reply keeps what streamed before the error (as stored, and as history shows it)
      const text = str('text') || (status === 'error' ? (s.streaming?.text ?? '') : '');
      const item = assistantDraft(text, status);
      const next = { ...s, streaming: null };
      return item ? appendItems(next, [item]) : next;
    }
    case 'tool.start': {
      const tool: RunningToolView = {
        toolId: str('tool_id'),
        name: str('name'),
        args: (p.args as Record<string, unknown>) ?? {},
        ...(typeof p.summary === 'string' ? { summary: p.summary } : {}),
        startedAt: at,
      };
      return { ...s, tools: [...s.tools.filter((t) => t.toolId !== tool.toolId), tool] };
    }
    case 'tool.progress':
      return {
        ...s,
        tools: s.tools.map((t) => (t.toolId === p.tool_id ? { ...t, progress: str('text') } : t)),
      };
    case 'tool.complete': {
      const running = s.tools.find((t) => t.toolId === p.tool_id);
      const next = { ...s, tools: s.tools.filter((t) => t.toolId !== p.tool_id) };
      return appendItems(next, [
        toolDraft({
          toolId: str('tool_id'),
          name: running?.name ?? 'tool',
          args: running?.args ?? {},
          summary: str('summary') || running?.summary || '',
          ok: p.ok === true,
          durationMs: typeof p.duration_ms === 'number' ? p.duration_ms : null,
          detail: str('detail'),
          ...blockedReason(p.blocked),
        }),
      ]);
    }
    case 'status.update':
      return { ...s, activity: str('state') || null, activityText: str('text') || null };
    case 'session.compressed': {
      // the conversation continues in a child session: later events carry its id
      const next = str('session_id');
      const n = typeof p.compressions === 'number' ? p.compressions : 1;
      const before = typeof p.before_tokens === 'number' ? p.before_tokens : null;
      const after = typeof p.after_tokens === 'number' ? p.after_tokens : null;
      const sizes = before !== null && after !== null ? `: context ${before} → ~${after} tokens` : '';
      return appendItems(
        {
          ...s,
          ...(next ? { sessionId: next } : {}),
          ...(after !== null && s.usage ? { usage: { ...s.usage, contextTokens: after } } : {}),
        },
        [{ kind: 'notice', text: `Context compressed (#${n})${sizes}.`, tone: 'info' }],
      );
    }
    case 'session.usage': {
      const u = p.usage as { total_tokens?: number } | undefined;
      return {
        ...s,
        usage: {
          totalTokens: u?.total_tokens ?? 0,
          contextTokens:
            typeof p.context_tokens === 'number' ? p.context_tokens : (s.usage?.contextTokens ?? null),
          contextWindow:
            typeof p.context_window === 'number' ? p.context_window : (s.usage?.contextWindow ?? null),
        },
      };
    }
    case 'request.resolved':
      return resolveRequest(s, str('request_id'), p.kind, p.choice, str('by'));
    case 'error':
      return appendItems(s, [errorDraft(str('message'))]);
    default:
      return s;
  }
}

/**
 * Drops a settled request's card and says, once, what settled it: from `request.resolved`, or
 * from the -32003 answer to this client's own late answer, whichever comes first (the id then
 * leaves `seenRequests`, so the other one adds no second line). Requests never shown here get
 * no line.
 */
function resolveRequest(
  state: SessionState,
  requestId: string,
  kind: unknown,
  choice: unknown,
  by: string,
): SessionState {
  const req = state.requests.find((r) => r.requestId === requestId);
  const known = req !== undefined || state.seenRequests.includes(requestId);
  const next = {
    ...state,
    requests: state.requests.filter((r) => r.requestId !== requestId),
    seenRequests: state.seenRequests.filter((id) => id !== requestId),
  };
  if (!known) return next;
  const k = kind === 'approval' || kind === 'clarify' ? kind : (req?.kind ?? 'approval');
  return appendItems(next, [resolutionDraft(k, choice, by, state)]);
}
