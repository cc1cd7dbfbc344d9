import { describe, expect, it } from 'vitest';
import type { EventPayload, EventType } from '@hermes/core/protocol';
import { snapshotResult, sessionInfo, stored, wire, type PartialPayload } from '../testing/fixtures.js';
import {
  initialSessionState,
  MAX_ITEMS,
  runningToolsView,
  sessionReducer,
  type SessionAction,
} from './session-reducer.js';
import type { SessionState } from './types.js';

function run(actions: SessionAction[], from: SessionState = initialSessionState()): SessionState {
  return actions.reduce(sessionReducer, from);
}
const ev = <K extends EventType>(
  type: K,
  seq: number,
  payload: PartialPayload<K> = {} as PartialPayload<K>,
): SessionAction => ({
  type: 'event',
  event: wire(type, seq, payload),
  now: 0,
});
const attach = (
  result: Parameters<typeof snapshotResult>[0] | ReturnType<typeof snapshotResult>,
): SessionAction => ({
  type: 'attach',
  result: snapshotResult(result),
  now: 0,
});
const texts = (s: SessionState): string[] =>
  s.items.map((i) => (i.kind === 'tool' ? `tool:${i.toolId}` : `${i.kind}:${i.text}`));

/** A complete turn as live events, from seq `at`. */
function turn(at: number, prompt: string, reply: string): SessionAction[] {
  return [
    ev('turn.start', at, { prompt_id: `p${at}`, text: prompt }),
    ev('message.start', at + 1, { role: 'assistant' }),
    ev('message.delta', at + 2, { text: reply.slice(0, 3) }),
    ev('message.delta', at + 3, { text: reply.slice(3) }),
    ev('message.complete', at + 4, { text: reply, status: 'complete', usage: {} }),
    ev('turn.end', at + 5, { prompt_id: `p${at}`, status: 'complete' }),
  ];
}

describe('sessionReducer', () => {
  it('takes the context usage from a snapshot, and forgets it for another session without one', () => {
    const withUsage = run([
      attach({ usage: { total_tokens: 900, context_tokens: 812, context_window: 128_000 } }),
    ]);
    expect(withUsage.usage).toEqual({ totalTokens: 900, contextTokens: 812, contextWindow: 128_000 });
    const other = sessionReducer(withUsage, {
      type: 'attach',
      result: snapshotResult({ session: sessionInfo({ id: 'other' }) }),
      now: 0,
    });
    expect(other.usage).toBeNull();
  });

  it('applies a snapshot: history items, in-flight text, running tools, queue, open requests', () => {
    const s = run([
      attach({
        messages: [
          stored('user', 'hi'),
          stored('assistant', 'hello!'),
          stored('user', 'list files'),
          stored('assistant', '', {
            tool_calls: [{ id: 'call1', name: 'terminal', arguments: '{"command":"ls"}' }],
          }),
          stored('tool', 'a.txt\nb.txt', { tool_call_id: 'call1', tool_name: 'terminal' }),
          stored('assistant', 'partial', { status: 'streaming' }),
        ],
        inflight: {
          prompt: 'list files',
          text: 'There are two',
          reasoning: '',
          tools: [{ tool_id: 'call2', name: 'read_file', args: { path: 'a.txt' }, started_at: 5 }],
          started_at: 4,
        },
        queued: [{ prompt_id: 'q1', text: 'next one' }],
        open_requests: [
          {
            request_id: 'approval-1',
            kind: 'approval',
            params: { command: 'rm -rf /tmp/x', description: 'recursive delete', choices: ['once', 'deny'] },
            created_at: 1,
            expires_at: 2,
          },
        ],
        seq: 41,
        session: sessionInfo({ busy: true }),
      }),
    ]);
    expect(texts(s)).toEqual(['user:hi', 'assistant:hello!', 'user:list files', 'tool:call1']);
    expect(s.items[3]).toMatchObject({
      name: 'terminal',
      args: { command: 'ls' },
      summary: 'a.txt',
      ok: null,
    });
    expect(s.streaming?.text).toBe('There are two');
    expect(s.tools.map((t) => t.toolId)).toEqual(['call2']);
    expect(s.queued).toHaveLength(1);
    expect(s.requests).toMatchObject([
      { requestId: 'approval-1', kind: 'approval', params: { command: 'rm -rf /tmp/x' } },
    ]);
    expect(s).toMatchObject({ busy: true, turnStartedAt: 4, lastSeq: 41 });
  });

  it('shows no live row for a running turn that streams no text (tools, approvals)', () => {
    const s = run([
      attach({
        inflight: { prompt: 'p', text: '', reasoning: '', tools: [], started_at: 1 },
        session: sessionInfo({ busy: true }),
      }),
    ]);
    expect(s.streaming).toBeNull();
    expect(s.busy).toBe(true);
  });

  it('says responding while reply text streams, thinking before it and during reasoning', () => {
    const s = run([
      attach({ seq: 0 }),
      ev('turn.start', 1, { prompt_id: 'p', text: 'go' }),
      ev('status.update', 2, { state: 'thinking' }),
      ev('message.start', 3),
      ev('reasoning.delta', 4, { text: 'hmm' }),
    ]);
    expect(s.activity).toBe('thinking');
    const streaming = run([ev('message.delta', 5, { text: 'Hel' })], s);
    expect(streaming.activity).toBe('responding');
    expect(run([ev('reasoning.delta', 6, { text: 'again' })], streaming).activity).toBe('thinking');
    expect(run([ev('status.update', 6, { state: 'tools' })], streaming).activity).toBe('tools');
    // a client attaching mid-reply
    const late = run([
      attach({
        inflight: { prompt: 'p', text: 'Hel', reasoning: '', tools: [], started_at: 1, status: 'thinking' },
        session: sessionInfo({ busy: true }),
      }),
    ]);
    expect(late.activity).toBe('responding');
  });

  it("keeps a tool's result text from tool.complete as its detail", () => {
    const s = run([
      attach({ seq: 0 }),
      ev('tool.start', 1, { tool_id: 't1', name: 'terminal', args: { command: 'seq 3' } }),
      ev('tool.complete', 2, {
        tool_id: 't1',
        ok: true,
        summary: 'exit 0',
        duration_ms: 5,
        detail: '1\n2\n3',
      }),
    ]);
    expect(s.items.at(-1)).toMatchObject({ kind: 'tool', detail: '1\n2\n3' });
  });

  it('marks the running tool an open approval is about as waiting for approval', () => {
    const tools = [
      { toolId: 't1', name: 'terminal', args: { command: 'ls' }, startedAt: 0 },
      { toolId: 't2', name: 'terminal', args: { command: 'rm -rf build' }, startedAt: 0 },
    ];
    const approval = {
      requestId: 'a1',
      kind: 'approval' as const,
      params: { command: 'rm -rf build', description: 'recursive delete', choices: ['once', 'deny'] },
    };
    expect(runningToolsView({ tools, requests: [] })).toBe(tools);
    const view = runningToolsView({ tools, requests: [approval] });
    expect(view.map((t) => t.awaitingApproval ?? false)).toEqual([false, true]);
    // not matched by its command (e.g. a command inside execute_code): the only running tool
    const one = runningToolsView({ tools: [tools[0]!], requests: [approval] });
    expect(one[0]!.awaitingApproval).toBe(true);
  });

  it('applies live events in order and drops duplicates', () => {
    const s = run([
      attach({ seq: 10 }),
      ev('turn.start', 9, { prompt_id: 'old', text: 'stale' }),
      ...turn(11, 'q', 'answer'),
    ]);
    expect(texts(s)).toEqual(['user:q', 'assistant:answer']);
    const again = run(turn(11, 'q', 'answer'), s);
    expect(again).toBe(s);
    expect(s).toMatchObject({ busy: false, streaming: null, lastSeq: 16, lastReply: 'answer' });
  });

  it('streams text, tools and usage while the turn runs', () => {
    const s = run([
      attach({ seq: 0 }),
      ev('turn.start', 1, { prompt_id: 'p', text: 'go' }),
      ev('message.start', 2),
      ev('message.delta', 3, { text: 'Work' }),
      ev('message.delta', 4, { text: 'ing' }),
      ev('tool.start', 5, { tool_id: 't1', name: 'terminal', args: { command: 'make' }, summary: 'make' }),
      ev('tool.progress', 6, { tool_id: 't1', text: 'compiling' }),
      ev('session.usage', 7, { usage: { total_tokens: 900 }, context_tokens: 500, context_window: 1000 }),
    ]);
    expect(s.streaming?.text).toBe('Working');
    expect(s.tools[0]).toMatchObject({ name: 'terminal', progress: 'compiling', startedAt: 10_005 });
    expect(s.usage).toEqual({ totalTokens: 900, contextTokens: 500, contextWindow: 1000 });
    expect(s.turnStartedAt).toBe(10_001);
    const priced = run(
      [
        ev('session.usage', 8, {
          usage: { total_tokens: 900, cost_usd: 0.0225, cost_status: 'priced' },
          session_cost_usd: 0.5,
          session_cost_status: 'partial',
        }),
      ],
      s,
    );
    expect(priced.usage).toMatchObject({ turnCost: '$0.0225', sessionCost: '$0.50 (partial)' });
    const done = run(
      [ev('tool.complete', 8, { tool_id: 't1', ok: false, summary: 'exit 2', duration_ms: 1500 })],
      s,
    );
    expect(done.tools).toEqual([]);
    expect(done.items.at(-1)).toMatchObject({
      kind: 'tool',
      name: 'terminal',
      ok: false,
      durationMs: 1500,
      summary: 'exit 2',
    });
  });

  it('removes a request on request.resolved with a line saying the answer and who gave it', () => {
    const base = run([
      { type: 'connected', connectionId: 'c-1', profile: 'default' },
      attach({ seq: 0 }),
      {
        type: 'request',
        request: {
          requestId: 'a1',
          kind: 'approval',
          params: { command: 'x', description: '', choices: [] },
        },
      },
      {
        type: 'request',
        request: {
          requestId: 'a2',
          kind: 'approval',
          params: { command: 'y', description: '', choices: [] },
        },
      },
      { type: 'request', request: { requestId: 'q1', kind: 'clarify', params: { question: 'colour?' } } },
    ]);
    const s = run(
      [
        ev('request.resolved', 1, {
          request_id: 'a1',
          kind: 'approval',
          choice: 'session',
          by: 'connection:c-2',
        }),
        ev('request.resolved', 2, { request_id: 'a2', kind: 'approval', choice: 'deny', by: 'timeout' }),
        ev('request.resolved', 3, {
          request_id: 'q1',
          kind: 'clarify',
          choice: 'blue',
          by: 'connection:c-1',
        }),
        ev('request.resolved', 4, {
          request_id: 'never-seen',
          kind: 'approval',
          choice: 'once',
          by: 'connection:c-2',
        }),
      ],
      base,
    );
    expect(s.requests).toEqual([]);
    expect(texts(s)).toEqual([
      'notice:✓ Approved for this session (answered in another window)',
      'notice:✗ Denied (no answer in time)',
      'notice:Question answered: blue (answered here)',
    ]);
  });

  it('words a resolution from its kind field (no guessing from the id), and only once', () => {
    const base = run([
      { type: 'connected', connectionId: 'c-new', profile: 'default', instanceId: 'i-1' },
      attach({ seq: 0 }),
      { type: 'request', request: { requestId: 'r-9', kind: 'clarify', params: { question: 'colour?' } } },
      {
        type: 'request',
        request: {
          requestId: 'r-10',
          kind: 'approval',
          params: { command: 'x', description: '', choices: [] },
        },
      },
    ]);
    const s = run(
      [
        // answered by this window before a /profile round trip: same instance, new connection id
        ev('request.resolved', 1, { request_id: 'r-9', kind: 'clarify', choice: 'blue', by: 'client:i-1' }),
        // this window's late answer learnt who won (-32003), then the event arrives too
        { type: 'request.settled', requestId: 'r-10', kind: 'approval', choice: 'once', by: 'client:i-2' },
        ev('request.resolved', 2, { request_id: 'r-10', kind: 'approval', choice: 'once', by: 'client:i-2' }),
      ],
      base,
    );
    expect(s.requests).toEqual([]);
    expect(texts(s)).toEqual([
      'notice:Question answered: blue (answered here)',
      'notice:✓ Approved once (answered in another window)',
    ]);
  });

  it('does not add a request twice (snapshot then re-sent server request)', () => {
    const s = run([
      attach({
        open_requests: [
          {
            request_id: 'a1',
            kind: 'approval',
            params: { command: 'x', description: '' },
            created_at: 0,
            expires_at: 1,
          },
        ],
      }),
      {
        type: 'request',
        request: {
          requestId: 'a1',
          kind: 'approval',
          params: { command: 'x', description: '', choices: [] },
        },
      },
    ]);
    expect(s.requests).toHaveLength(1);
  });

  it('applies a replay after a reconnect without duplicating what is on screen', () => {
    const live = run([
      attach({ seq: 0 }),
      ...turn(1, 'one', 'first'),
      ev('turn.start', 7, { prompt_id: 'p7', text: 'two' }),
    ]);
    const s = sessionReducer(live, {
      type: 'attach',
      now: 0,
      result: {
        kind: 'replay',
        session: sessionInfo(),
        events: [
          wire('turn.start', 7, { prompt_id: 'p7', text: 'two' }),
          wire('message.start', 8),
          wire('message.complete', 9, { text: 'second', status: 'complete' }),
          wire('turn.end', 10, { prompt_id: 'p7', status: 'complete' }),
        ],
        open_requests: [],
        seq: 10,
        epoch: 'e1',
      },
    });
    expect(texts(s)).toEqual(['user:one', 'assistant:first', 'user:two', 'assistant:second']);
    expect(s.lastSeq).toBe(10);
  });

  it('merges a full snapshot after a daemon restart: only the messages not yet shown are added', () => {
    const live = run([
      attach({ seq: 0 }),
      ...turn(1, 'one', 'first'),
      ev('turn.start', 7, { prompt_id: 'p7', text: 'two' }),
    ]);
    const before = live.items.map((i) => i.n);
    const s = sessionReducer(live, {
      type: 'attach',
      now: 0,
      result: snapshotResult({
        epoch: 'e2',
        seq: 3,
        messages: [
          stored('user', 'one'),
          stored('assistant', 'first'),
          stored('user', 'two'),
          stored('assistant', 'second', { status: 'interrupted' }),
        ],
      }),
    });
    expect(texts(s)).toEqual(['user:one', 'assistant:first', 'user:two', 'assistant:second']);
    expect(s.items.slice(0, 3).map((i) => i.n)).toEqual(before);
    expect(s.lastSeq).toBe(3);
    // events of the new epoch continue from its seq
    const after = run([ev('turn.start', 4, { prompt_id: 'p', text: 'three' })], s);
    expect(texts(after).at(-1)).toBe('user:three');
  });

  it('marks a gap when the snapshot no longer reaches back to what is on screen', () => {
    const live = run([attach({ seq: 0 }), ...turn(1, 'one', 'first')]);
    const s = sessionReducer(live, {
      type: 'attach',
      now: 0,
      result: snapshotResult({
        seq: 90,
        truncated: true,
        messages: [stored('user', 'ten'), stored('assistant', 'tenth')],
      }),
    });
    expect(texts(s)).toEqual([
      'user:one',
      'assistant:first',
      'notice:Reconnected: some earlier messages are not shown here.',
      'user:ten',
      'assistant:tenth',
    ]);
  });

  it('keeps a bounded window of items with increasing ordinals', () => {
    let s = run([attach({ seq: 0 })]);
    for (let i = 0; i < MAX_ITEMS; i++) s = run(turn(1 + i * 6, `q${i}`, `a${i}`), s);
    expect(s.items).toHaveLength(MAX_ITEMS);
    expect(s.nextN).toBe(MAX_ITEMS * 2);
    expect(s.items[0]!.n).toBe(MAX_ITEMS);
    expect(texts(s).at(-1)).toBe(`assistant:a${MAX_ITEMS - 1}`);
  });

  it('attaching another session appends its history after what is printed, and ignores other sessions', () => {
    const s1 = run([attach({ seq: 0 }), ...turn(1, 'one', 'first')]);
    const s2 = run(
      [
        attach({ session: sessionInfo({ id: 's2' }), seq: 100, messages: [stored('user', 'other')] }),
        { type: 'event', event: wire('turn.start', 200, { prompt_id: 'x', text: 'from s1' }, 's1'), now: 0 },
      ],
      s1,
    );
    expect(texts(s2)).toEqual(['user:other']);
    expect(s2.items[0]!.n).toBe(2);
    expect(s2.sessionId).toBe('s2');
  });

  it("shows the session's set-up notices (a blocked context file) once, when it is opened", () => {
    const note = '[BLOCKED: AGENTS.md: instruction_override]';
    const s = run([attach({ session: sessionInfo({ id: 's9', notices: [note] }), seq: 0 })]);
    expect(texts(s)).toEqual([`notice:⚠ ${note}`]);
    expect(s.items[0]).toMatchObject({ tone: 'warn' });
    const again = run([attach({ session: sessionInfo({ id: 's9', notices: [note] }), seq: 0 })], s);
    expect(texts(again)).toEqual([`notice:⚠ ${note}`]);
  });

  it('clear empties the screen items but keeps the last reply for /copy', () => {
    const s = run([attach({ seq: 0 }), ...turn(1, 'q', 'reply'), { type: 'clear' }]);
    expect(s.items).toEqual([]);
    expect(s.lastReply).toBe('reply');
  });

  it('/history prints older messages after what is shown, between a header and a footer', () => {
    const m1 = stored('user', 'oldest question');
    const m2 = stored('assistant', 'oldest answer');
    const m3 = stored('user', 'recent question');
    const m4 = stored('assistant', 'recent answer');
    let s = run([attach({ messages: [m3, m4], has_more: true })]);
    expect(s.oldestMessageId).toBe(m3.id);
    s = run([{ type: 'older', messages: [m1, m2], hasMore: false }], s);
    expect(texts(s)).toEqual([
      'user:recent question',
      'assistant:recent answer',
      'notice:── 2 earlier messages of this session ──',
      'user:oldest question',
      'assistant:oldest answer',
      'notice:── end of earlier messages (the session starts here) ──',
    ]);
    expect(s.items.filter((i) => i.older).length).toBe(2);
    expect(s.oldestMessageId).toBe(m1.id);
    expect(s.hasMore).toBe(false);
    expect(s.lastReply).toBe('recent answer');
    // a refetch after a reconnect keeps the cursor and matches only the newest items
    const m5 = stored('user', 'while away');
    s = run([attach({ messages: [m3, m4, m5], has_more: true })], s);
    expect(texts(s).slice(-1)).toEqual(['user:while away']);
    expect(s.oldestMessageId).toBe(m1.id);
    expect(s.hasMore).toBe(false);
  });

  it('follows a context compression to the child session id and keeps applying its events', () => {
    const s = run([
      attach({}),
      ev('session.compressed', 5, {
        parent_session_id: 's1',
        session_id: 's2',
        before_tokens: 9000,
        after_tokens: 1200,
        compressions: 1,
      }),
      {
        type: 'event',
        event: wire('turn.start', 6, { prompt_id: 'p6', text: 'after compact' }, 's2'),
        now: 0,
      },
    ]);
    expect(s.sessionId).toBe('s2');
    expect(texts(s)).toContain('notice:Context compressed (#1): context 9000 → ~1200 tokens.');
    expect(texts(s)).toContain('user:after compact');
  });

  it("warns of a loosened approval setting of its profile, naming who changed it; other profiles' are not shown", () => {
    type Loosened = NonNullable<EventPayload<'config.changed'>['loosened']>;
    const changed = (profile: string, loosened: Loosened): SessionAction => ({
      type: 'event',
      event: {
        type: 'config.changed',
        session_id: '*',
        seq: 0,
        payload: { profile, files: ['config.yaml'], loosened },
      },
      now: 0,
    });
    const s = run([
      { type: 'connected', connectionId: 'c-1', profile: 'default' },
      attach({}),
      changed('default', [
        { key: 'approvals.mode', from: 'manual', to: 'off' },
        { key: 'command_allowlist', from: ['a'], to: ['a', 'recursive-delete'], by: 'hermes-tui:c-9' },
      ]),
      changed('work', [{ key: 'approvals.mode', from: 'manual', to: 'off' }]),
      {
        type: 'event',
        event: {
          type: 'config.changed',
          session_id: '*',
          seq: 0,
          payload: { profile: 'default', files: [] },
        },
        now: 0,
      },
    ]);
    const notices = s.items.filter((i) => i.kind === 'notice');
    expect(notices).toEqual([
      expect.objectContaining({
        text: 'approvals.mode changed to off outside Hermes — applies from the next turn',
        tone: 'warn',
      }),
      expect.objectContaining({
        text: 'command_allowlist gained recursive-delete by hermes-tui:c-9 — applies from the next turn',
        tone: 'warn',
      }),
    ]);
  });
});
