import { describe, expect, it } from 'vitest';
import { snapshotResult, stored, wire } from '../testing/fixtures.js';
import { draftsFromHistory, newDraftsAfter } from './history-items.js';
import { initialSessionState, sessionReducer, type SessionAction } from './session-reducer.js';
import type { ItemDraft, SessionState } from './types.js';

const run = (actions: SessionAction[], from: SessionState = initialSessionState()): SessionState =>
  actions.reduce(sessionReducer, from);
const connected: SessionAction = { type: 'connected', connectionId: 'c1', profile: 'default' };
const drafts = (s: SessionState): ItemDraft[] => s.items.map(({ n: _n, ...d }) => d);

/** One turn: an approved command, a failing tool, a reply; then a turn that fails. */
const events = [
  wire('turn.start', 1, { prompt_id: 'p1', text: 'clean up' }),
  wire('tool.start', 2, { tool_id: 't1', name: 'terminal', args: { command: 'rm -rf x' } }),
  wire('request.resolved', 3, { request_id: 'approval-1', choice: 'once', by: 'connection:c1' }),
  wire('tool.complete', 4, {
    tool_id: 't1',
    ok: true,
    summary: 'exit 0',
    duration_ms: 40,
    detail: 'exit code 0',
  }),
  wire('tool.start', 5, { tool_id: 't2', name: 'read_file', args: { path: 'nope' } }),
  wire('tool.complete', 6, {
    tool_id: 't2',
    ok: false,
    summary: 'nope does not exist',
    duration_ms: 2,
    detail: 'Error: nope does not exist',
  }),
  wire('tool.start', 7, { tool_id: 't3', name: 'terminal', args: { command: 'git reset --hard' } }),
  wire('request.resolved', 8, { request_id: 'approval-2', choice: 'deny', by: 'connection:c1' }),
  wire('tool.complete', 9, {
    tool_id: 't3',
    ok: false,
    summary: 'blocked (denied)',
    duration_ms: 900,
    detail: 'BLOCKED: denied by the user',
    blocked: { reason: 'denied' },
  }),
  wire('message.start', 10),
  wire('message.delta', 11, { text: 'Done.' }),
  wire('message.complete', 12, { text: 'Done.', status: 'complete' }),
  wire('turn.end', 13, { prompt_id: 'p1', status: 'complete' }),
  wire('turn.start', 14, { prompt_id: 'p2', text: 'again' }),
  wire('message.start', 15),
  wire('message.delta', 16, { text: 'Half a rep' }),
  wire('error', 17, { message: 'the model went away' }),
  wire('message.complete', 18, { text: '', status: 'error', error: 'the model went away' }),
  wire('turn.end', 19, { prompt_id: 'p2', status: 'error' }),
];

/** The same turns as the daemon stores them. */
const messages = [
  stored('user', 'clean up'),
  stored('assistant', '', {
    tool_calls: [
      { id: 't1', name: 'terminal', arguments: '{"command":"rm -rf x"}' },
      { id: 't2', name: 'read_file', arguments: '{"path":"nope"}' },
      { id: 't3', name: 'terminal', arguments: '{"command":"git reset --hard"}' },
    ],
  }),
  stored('tool', 'exit code 0', {
    tool_call_id: 't1',
    tool_name: 'terminal',
    outcome: {
      ok: true,
      summary: 'exit 0',
      duration_ms: 40,
      approvals: [{ choice: 'once', by: 'connection:c1' }],
    },
  }),
  stored('tool', 'Error: nope does not exist', {
    tool_call_id: 't2',
    tool_name: 'read_file',
    outcome: { ok: false, summary: 'nope does not exist', duration_ms: 2 },
  }),
  stored('tool', 'BLOCKED: denied by the user', {
    tool_call_id: 't3',
    tool_name: 'terminal',
    outcome: {
      ok: false,
      summary: 'blocked (denied)',
      duration_ms: 900,
      blocked: { reason: 'denied' },
      approvals: [{ choice: 'deny', by: 'connection:c1' }],
    },
  }),
  stored('assistant', 'Done.'),
  stored('user', 'again'),
  stored('assistant', 'Half a rep', { status: 'error', outcome: { error: 'the model went away' } }),
];

describe('history items', () => {
  it('a turn rebuilt from stored history gives the items the live events gave', () => {
    const live = run([
      connected,
      { type: 'attach', result: snapshotResult(), now: 0 },
      {
        type: 'request',
        request: {
          requestId: 'approval-1',
          kind: 'approval',
          params: { command: 'rm -rf x', description: '', choices: [] },
        },
      },
      {
        type: 'request',
        request: {
          requestId: 'approval-2',
          kind: 'approval',
          params: { command: 'git reset --hard', description: '', choices: [] },
        },
      },
      ...events.map((event): SessionAction => ({ type: 'event', event, now: 0 })),
    ]);
    const history = run([
      connected,
      { type: 'attach', result: snapshotResult({ messages, seq: 19 }), now: 0 },
    ]);
    // tool details (the result text) too: live from tool.complete's detail, stored as the content
    const liveDrafts = drafts(live);
    expect(drafts(history)).toEqual(liveDrafts);
    expect(liveDrafts.map((d) => (d.kind === 'notice' ? d.text : d.kind))).toEqual([
      'user',
      '✓ Approved once (answered here)',
      'tool',
      'tool',
      '✗ Denied (answered here)',
      'tool',
      'assistant',
      'user',
      'Error: the model went away',
      'assistant',
    ]);
    expect(liveDrafts.filter((d) => d.kind === 'tool').map((d) => d.kind === 'tool' && d.ok)).toEqual([
      true,
      false,
      false,
    ]);
    // the denied command never ran: it is marked blocked, with the reason
    expect(liveDrafts.at(-5)).toMatchObject({ kind: 'tool', toolId: 't3', blocked: 'denied' });
  });

  it('a refused script is blocked live and from history by the `blocked` field, not its summary', () => {
    const live = run([
      connected,
      { type: 'attach', result: snapshotResult(), now: 0 },
      ...[
        wire('turn.start', 1, { prompt_id: 'p1', text: 'go' }),
        wire('tool.start', 2, { tool_id: 's1', name: 'execute_code', args: { code: 'x()' } }),
        wire('tool.complete', 3, {
          tool_id: 's1',
          ok: false,
          summary: 'refused',
          duration_ms: 1,
          detail: 'BLOCKED: a script',
          blocked: { reason: 'no_frontend' },
        }),
        // a summary that merely looks like the guard's is not a block: only the field counts
        wire('tool.start', 4, { tool_id: 's2', name: 'mcp_tool', args: {} }),
        wire('tool.complete', 5, { tool_id: 's2', ok: false, summary: 'blocked (denied)', duration_ms: 1 }),
      ].map((event): SessionAction => ({ type: 'event', event, now: 0 })),
    ]);
    const history = draftsFromHistory(
      [
        stored('user', 'go'),
        stored('assistant', '', {
          tool_calls: [
            { id: 's1', name: 'execute_code', arguments: '{"code":"x()"}' },
            { id: 's2', name: 'mcp_tool', arguments: '{}' },
          ],
        }),
        stored('tool', 'BLOCKED: a script', {
          tool_call_id: 's1',
          tool_name: 'execute_code',
          outcome: { ok: false, summary: 'refused', duration_ms: 1, blocked: { reason: 'no_frontend' } },
        }),
        stored('tool', '', {
          tool_call_id: 's2',
          tool_name: 'mcp_tool',
          outcome: { ok: false, summary: 'blocked (denied)', duration_ms: 1 },
        }),
      ],
      null,
    );
    expect(history).toEqual(drafts(live));
    expect(history[1]).toMatchObject({ kind: 'tool', toolId: 's1', blocked: 'no_frontend' });
    expect(history[2]).not.toHaveProperty('blocked');
  });

  it('a refusal stored before results carried `blocked` is still shown blocked', () => {
    const d = draftsFromHistory(
      [
        stored('tool', 'BLOCKED: …', {
          tool_call_id: 'x',
          tool_name: 'terminal',
          outcome: { ok: false, summary: 'blocked (timeout)', duration_ms: 3 },
        }),
      ],
      null,
    );
    expect(d[0]).toMatchObject({ kind: 'tool', blocked: 'timeout' });
  });

  it('history without outcomes (older sessions) still shows the calls, with an unknown outcome', () => {
    const old = draftsFromHistory(
      [stored('user', 'hi'), stored('tool', 'some output', { tool_call_id: 'x', tool_name: 'terminal' })],
      null,
    );
    expect(old[1]).toMatchObject({ kind: 'tool', ok: null, durationMs: null, summary: 'some output' });
  });

  it('an approval answered elsewhere is worded from this connection', () => {
    const d = draftsFromHistory(
      [
        stored('tool', 'blocked', {
          tool_call_id: 'x',
          outcome: { ok: false, summary: 'blocked', approvals: [{ choice: 'deny', by: 'connection:c9' }] },
        }),
      ],
      null,
      { connectionId: 'c1', instanceId: 'i1' },
    );
    expect(d[0]).toEqual({ kind: 'notice', text: '✗ Denied (answered in another window)', tone: 'warn' });
  });

  it('an approval this client gave under an earlier connection (a /profile round trip) reads as answered here', () => {
    const outcome = (by: string) => ({
      ok: true,
      summary: 'ran',
      approvals: [{ choice: 'once', by }],
    });
    const d = draftsFromHistory(
      [
        stored('tool', 'ran', { tool_call_id: 'x', outcome: outcome('client:i1') }),
        stored('tool', 'ran', { tool_call_id: 'y', outcome: outcome('client:i2') }),
      ],
      null,
      { connectionId: 'c-new', instanceId: 'i1' },
    );
    expect(d.filter((x) => x.kind === 'notice').map((x) => x.kind === 'notice' && x.text)).toEqual([
      '✓ Approved once (answered here)',
      '✓ Approved once (answered in another window)',
    ]);
  });

  it('matching a refetched snapshot skips over approval and error notices', () => {
    const all = draftsFromHistory(messages, null, { connectionId: 'c1', instanceId: null });
    const shown = all.slice(0, 4).map((d, n) => ({ ...d, n })); // up to the first tool line
    const { fresh, gap } = newDraftsAfter(shown, all);
    expect(gap).toBe(false);
    expect(fresh).toEqual(all.slice(4));
  });
});
