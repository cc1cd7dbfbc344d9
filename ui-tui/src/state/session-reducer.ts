/**
 * The session reducer: a plain function from (state, action) to state, testable without Ink.
 * It applies a `session.attach` result (snapshot or replay), then live events in seq order,
 * dropping duplicates (seq ≤ last seen), and keeps a bounded window of finished items.
 */
import type { SessionInfo, WireEvent, WireEventOf } from '@hermes/core/protocol';
import { costLabel } from '@hermes/core/constants';
import type { AttachResult } from '@hermes/client';
import { errorDraft, loosenedNotices, toolDraft } from './event-items.js';
import { applyConversationEvent } from './conversation-events.js';
import { draftsFromHistory, newDraftsAfter } from './history-items.js';
import {
  endShownReply,
  growReply,
  lastPartDraft,
  partDraft,
  printedText,
  RESTART_NOTE,
  restartReply,
  resumeReply,
  rewritten,
  startReply,
} from './reply-parts.js';
import { appendItems, applyOlder, oldestAfterSnapshot } from './transcript-window.js';
import { addRequest, openRequests, resolveRequest, seenWith } from './request-state.js';
import type { ItemDraft, RunningToolView, SessionState } from './types.js';
import { initialSessionState, type SessionAction } from './session-actions.js';
import type { UnknownEventSink } from './unknown-events.js';

/** `{[key]: label}` of a cost the daemon priced, or nothing when it did not. */
function costText<K extends 'turnCost' | 'sessionCost'>(
  key: K,
  usd: number | undefined,
  status: string | undefined,
): Partial<Record<K, string>> {
  const label = costLabel(usd, status);
  return label === undefined ? {} : ({ [key]: label } as Partial<Record<K, string>>);
}

export { appendItems, MAX_ITEMS } from './transcript-window.js';
export { describeResolution } from './event-items.js';
export { unknownEventLog, type UnknownEventSink } from './unknown-events.js';
export { requestView, runningToolsView } from './request-state.js';

export { initialSessionState, type SessionAction } from './session-actions.js';

/** Options of `createSessionReducer`. */
export interface SessionReducerOptions {
  /**
   * Told the type of every event this TUI does not know (sent by a newer daemon), which is then
   * ignored; `unknownEventLog` makes a sink that logs each type once. Default: nothing.
   */
  onUnknownEvent?: UnknownEventSink;
}

/** A session reducer whose unknown events go to `opts.onUnknownEvent`. */
export function createSessionReducer(
  opts: SessionReducerOptions = {},
): (state: SessionState, action: SessionAction) => SessionState {
  const onUnknown = opts.onUnknownEvent ?? (() => {});
  return (state, action) => reduce(state, action, onUnknown);
}

/** Reduces one action; events of unknown types are ignored without a word. */
export const sessionReducer = createSessionReducer();

function reduce(state: SessionState, action: SessionAction, onUnknown: UnknownEventSink): SessionState {
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
      return applyAttach(state, action.result, action.now, onUnknown);
    case 'event':
      return applyEvent(state, action.event, action.now, onUnknown);
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
    case 'background':
      return { ...state, backgroundRunning: action.running };
    case 'older':
      return applyOlder(state, action.messages, action.hasMore);
    case 'historyFrom':
      return { ...state, oldestMessageId: action.before, hasMore: true };
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
        backgroundRunning: state.backgroundRunning,
      };
  }
}

function sessionFields(session: SessionInfo): Partial<SessionState> {
  return { session, sessionId: session.id, profile: session.profile };
}

function applyAttach(
  state: SessionState,
  result: AttachResult,
  now: number,
  onUnknown: UnknownEventSink,
): SessionState {
  const sameSession = state.sessionId === result.session.id;
  if (result.kind === 'replay') {
    let s: SessionState = { ...state, ...sessionFields(result.session), epoch: result.epoch };
    for (const ev of result.events) s = applyEvent(s, ev, now, onUnknown);
    const requests = openRequests(result.open_requests);
    return { ...s, requests, seenRequests: seenWith(s, requests), lastSeq: Math.max(s.lastSeq, result.seq) };
  }
  const drafts = draftsFromHistory(result.messages, result.inflight, state);
  const inflight = result.inflight;
  const requests = openRequests(result.open_requests);
  // the reply this TUI was streaming (same session): printed in part already, it is continued —
  // ended by its stored message if it finished meanwhile, else resumed from the in-flight text
  const shown = sameSession ? state.streaming : null;
  const { fresh, gap } = sameSession ? newDraftsAfter(state.items, drafts) : { fresh: drafts, gap: false };
  const ended = endShownReply(shown, fresh);
  const live =
    inflight && (inflight.text || inflight.reasoning)
      ? resumeReply(ended.ended ? null : shown, inflight.text, inflight.reasoning)
      : null;
  const liveParts: ItemDraft[] = [
    ...(live?.restarted ? [RESTART_NOTE] : []),
    ...(live?.part ? [partDraft(live.part)] : []),
  ];
  let s: SessionState = {
    ...state,
    ...sessionFields(result.session),
    epoch: result.epoch,
    lastSeq: result.seq,
    ...oldestAfterSnapshot(state, result, sameSession),
    // a turn can run with no message streaming (tools, approvals): no empty live row then
    streaming: live?.reply ?? null,
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
            ...costText('sessionCost', result.usage.session_cost_usd, result.usage.session_cost_status),
          },
        }
      : sameSession
        ? {}
        : { usage: null }),
  };
  if (!sameSession) {
    // A different session: its history follows what is already printed (nothing is erased), then
    // the warnings of how it was set up (a context file the content scanner blocked).
    const notices = (result.session.notices ?? []).map((text): ItemDraft => ({
      kind: 'notice',
      text: `⚠ ${text}`,
      tone: 'warn',
    }));
    return appendItems({ ...s, items: [] }, [...drafts, ...notices, ...liveParts]);
  }
  if (gap && state.items.length > 0) {
    s = appendItems(s, [
      { kind: 'notice', text: 'Reconnected: some earlier messages are not shown here.', tone: 'warn' },
    ]);
  }
  // the reply ended by the snapshot is what /copy copies (unless a later reply follows it)
  if (ended.whole?.trim()) s = { ...s, lastReply: ended.whole };
  return appendItems(s, [...ended.drafts, ...liveParts]);
}

/** The activity of an in-flight turn that has streamed text: `responding` instead of `thinking`. */
function respondingAfter(activity: string | null | undefined): string {
  return !activity || activity === 'thinking' ? 'responding' : activity;
}

/** Event types sent to every client (session_id `*`, seq 0) rather than to one session. */
type DaemonWideType =
  | 'gateway.shutdown'
  | 'config.changed'
  | 'cron.changed'
  | 'mcp.status'
  | 'process.changed'
  | 'status.changed';
/** An event of one session (applied in seq order, duplicates dropped). */
type SessionEvent = Exclude<WireEvent, WireEventOf<DaemonWideType>>;

/**
 * Applies one event. The switch names every event type of the protocol (`EventPayloads`): a type
 * added there without a case here does not compile (`unknownEvent` takes `never`). A type this
 * TUI does not know (a newer daemon's) is reported through `onUnknown` and ignored.
 */
function applyEvent(
  state: SessionState,
  ev: WireEvent,
  now: number,
  onUnknown: UnknownEventSink,
): SessionState {
  switch (ev.type) {
    case 'gateway.shutdown':
      return appendItems(state, [
        { kind: 'notice', text: `The daemon is shutting down (${ev.payload.reason}).`, tone: 'warn' },
      ]);
    case 'config.changed': {
      // a loosened approval setting of this profile: every TUI of it warns (session_id is `*`)
      const mine = state.profile === null || ev.payload.profile === state.profile;
      const lines = mine ? loosenedNotices(ev.payload.loosened ?? []) : [];
      return lines.length > 0 ? appendItems(state, lines) : state;
    }
    case 'cron.changed':
    case 'mcp.status':
    case 'status.changed':
      return state; // the transcript does not show them (the /cron and /mcp commands ask)
    case 'process.changed': {
      // the status bar counts this profile's running background processes; a stop is told
      if (state.profile !== null && ev.payload.profile !== state.profile) return state;
      const next = { ...state, backgroundRunning: ev.payload.running };
      const p = ev.payload.process;
      return ev.payload.reason === 'stopping'
        ? appendItems(next, [
            {
              kind: 'notice',
              text: `The daemon stops: background process ${p.id} (${p.command.slice(0, 60)}) is being stopped.`,
              tone: 'warn',
            },
          ])
        : next;
    }
    case 'session.info':
    case 'turn.start':
    case 'turn.end':
    case 'prompt.queued':
    case 'message.start':
    case 'message.delta':
    case 'reasoning.delta':
    case 'message.complete':
    case 'tool.start':
    case 'tool.progress':
    case 'tool.complete':
    case 'status.update':
    case 'session.compressed':
    case 'session.usage':
    case 'request.resolved':
    case 'error':
    case 'subagent.start':
    case 'subagent.progress':
    case 'subagent.complete':
    case 'approval.smart':
    case 'prompt.steered':
    case 'session.rewound':
      if (ev.session_id !== state.sessionId || ev.seq <= state.lastSeq) return state;
      return applySessionEvent({ ...state, lastSeq: ev.seq }, ev, ev.ts ?? now);
    default:
      return unknownEvent(state, ev, onUnknown);
  }
}

/**
 * An event whose type this TUI does not know: reported, and otherwise ignored (its seq still
 * counts as seen, so a replay does not bring it back). Typed `never`: every known type has a case.
 */
function unknownEvent(state: SessionState, ev: never, onUnknown: UnknownEventSink): SessionState {
  const e = ev as { type: unknown; session_id?: unknown; seq?: unknown };
  onUnknown(String(e.type));
  return e.session_id === state.sessionId && typeof e.seq === 'number' && e.seq > state.lastSeq
    ? { ...state, lastSeq: e.seq }
    : state;
}

/** Applies an event of the attached session (`s.lastSeq` already is its seq); `at` is its time. */
function applySessionEvent(s: SessionState, ev: SessionEvent, at: number): SessionState {
  switch (ev.type) {
    case 'session.info': {
      const { session } = ev.payload;
      return { ...s, session, ...(session.busy !== undefined ? { busy: session.busy } : {}) };
    }
    case 'turn.start': {
      const p = ev.payload;
      const next: SessionState = {
        ...s,
        busy: true,
        turnStartedAt: at,
        streaming: null,
        tools: [],
        activity: 'thinking',
        activityText: null,
        queued: s.queued.filter((q) => q.prompt_id !== p.prompt_id),
      };
      return appendItems(next, [
        {
          kind: 'user',
          text: p.text,
          ...(p.by ? { by: p.by } : {}),
          ...(p.attachments?.length ? { attachments: p.attachments } : {}),
        },
      ]);
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
      return { ...s, queued: ev.payload.queued };
    case 'message.start':
      // mid-reply (a retried model call): the parts printed of it stay, and are not printed again
      return { ...s, streaming: restartReply(s.streaming) };
    case 'message.delta': {
      const { text } = ev.payload;
      const { reply, part, restarted } = growReply(s.streaming ?? startReply(), text);
      const next: SessionState = {
        ...s,
        streaming: reply,
        // text arriving means the model answers now, whatever the last status said
        activity: text ? 'responding' : s.activity,
      };
      // the blocks this delta finished are printed now; only the growing one stays live
      const drafts: ItemDraft[] = [...(restarted ? [RESTART_NOTE] : []), ...(part ? [partDraft(part)] : [])];
      return drafts.length ? appendItems(next, drafts) : next;
    }
    case 'reasoning.delta': {
      const reply = s.streaming ?? startReply();
      return {
        ...s,
        streaming: { ...reply, reasoning: reply.reasoning + ev.payload.text },
        activity: s.activity === 'responding' ? 'thinking' : s.activity,
      };
    }
    case 'message.complete': {
      const { status } = ev.payload;
      // a failed reply keeps what streamed before the error (as stored, and as history shows it)
      const text = ev.payload.text || (status === 'error' ? (s.streaming?.text ?? '') : '');
      const printed = s.streaming ? printedText(s.streaming) : '';
      const item = lastPartDraft(text, status, printed);
      const next = { ...s, streaming: null };
      if (!item) return next;
      const after = appendItems(next, rewritten(text, printed) ? [RESTART_NOTE, item] : [item]);
      // the reply as a whole is what /copy copies, also when it was printed in parts
      return text.trim() ? { ...after, lastReply: text } : after;
    }
    case 'tool.start': {
      const p = ev.payload;
      const tool: RunningToolView = {
        toolId: p.tool_id,
        name: p.name,
        args: p.args,
        ...(p.summary !== undefined ? { summary: p.summary } : {}),
        startedAt: at,
      };
      return { ...s, tools: [...s.tools.filter((t) => t.toolId !== tool.toolId), tool] };
    }
    case 'tool.progress': {
      const p = ev.payload;
      return { ...s, tools: s.tools.map((t) => (t.toolId === p.tool_id ? { ...t, progress: p.text } : t)) };
    }
    case 'tool.complete': {
      const p = ev.payload;
      const running = s.tools.find((t) => t.toolId === p.tool_id);
      const next = { ...s, tools: s.tools.filter((t) => t.toolId !== p.tool_id) };
      return appendItems(next, [
        toolDraft({
          toolId: p.tool_id,
          name: running?.name ?? 'tool',
          args: running?.args ?? {},
          summary: p.summary || running?.summary || '',
          ok: p.ok,
          durationMs: p.duration_ms,
          detail: p.detail ?? '',
          ...(p.blocked ? { blocked: p.blocked.reason } : {}),
        }),
      ]);
    }
    case 'status.update':
      return { ...s, activity: ev.payload.state, activityText: ev.payload.text || null };
    case 'session.compressed': {
      // the conversation continues in a child session: later events carry its id
      const p = ev.payload;
      const sizes = `: context ${p.before_tokens} → ~${p.after_tokens} tokens`;
      return appendItems(
        {
          ...s,
          sessionId: p.session_id,
          ...(s.usage ? { usage: { ...s.usage, contextTokens: p.after_tokens } } : {}),
        },
        [{ kind: 'notice', text: `Context compressed (#${p.compressions})${sizes}.`, tone: 'info' }],
      );
    }
    case 'session.usage': {
      const p = ev.payload;
      return {
        ...s,
        usage: {
          totalTokens: p.usage.total_tokens,
          contextTokens: p.context_tokens ?? s.usage?.contextTokens ?? null,
          contextWindow: p.context_window ?? s.usage?.contextWindow ?? null,
          ...costText('turnCost', p.usage.cost_usd, p.usage.cost_status),
          ...costText('sessionCost', p.session_cost_usd, p.session_cost_status),
        },
      };
    }
    case 'request.resolved': {
      const p = ev.payload;
      return resolveRequest(s, p.request_id, p.kind, p.choice, p.by);
    }
    case 'error':
      // kind `notice`: something to know once (e.g. reasoning effort unsupported), not a failure
      if (ev.payload.kind === 'notice')
        return appendItems(s, [{ kind: 'notice', text: ev.payload.message, tone: 'warn' }]);
      return appendItems(s, [errorDraft(ev.payload.message)]);
    case 'subagent.start':
    case 'subagent.progress':
    case 'subagent.complete':
    case 'approval.smart':
      // shown through the delegate_task tool line and the approval card; no transcript item
      return s;
    case 'prompt.steered':
    case 'session.rewound':
      return applyConversationEvent(s, ev);
  }
}
