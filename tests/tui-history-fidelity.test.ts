/**
 * A transcript rebuilt from history reads as it did live (run `npm run build` first): a real
 * daemon runs turns with an approved command, a failing tool, a denied command and a model error;
 * the TUI's reducer builds one transcript from the live events and another from a fresh
 * `session.attach` snapshot (the stored messages with their outcomes), and both render to the
 * same frame: tool lines with ✓/✗, summary and duration, approval outcomes and the error.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import type { AttachResult } from '@hermes/client';
import { Transcript } from '../ui-tui/src/components/Transcript.js';
import { loadMarkdown } from '../ui-tui/src/markdown/render.js';
import { initialSessionState, requestView, sessionReducer } from '../ui-tui/src/state/session-reducer.js';
import type { SessionState } from '../ui-tui/src/state/types.js';
import { waitFor } from './support/gateway-process.js';
import { is, useGateway } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-fidelity-');
afterEach(() => cleanup());
// replies print once markdown is loaded (as in the TUI, where the transcript waits for it): the
// first frame is then the whole transcript
beforeAll(() => loadMarkdown());

const SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The transcript as the TUI prints it, without colours. */
async function frame(state: SessionState): Promise<string> {
  const r = render(createElement(Transcript, { items: state.items, nextN: state.nextN, width: 100 }));
  return waitFor(() => r.lastFrame()?.replace(SGR, '') || undefined, 'the transcript frame');
}

describe('history renders like the live view', () => {
  it('tool outcomes, approvals and errors of finished turns', async () => {
    const { client: a, model, root } = fx;
    const approve = join(root, 'victim-approved');
    const denied = join(root, 'victim-denied');
    for (const d of [approve, denied]) mkdirSync(d, { recursive: true });
    const choices = ['once', 'deny'];
    const asked: Array<{ id: string; params: Record<string, unknown> }> = [];
    a.c.onServerRequest('approval.request', (p) => {
      asked.push({ id: p.request_id, params: p as unknown as Record<string, unknown> });
      return { choice: (choices.shift() ?? 'deny') as 'once' | 'deny' };
    });
    const { session } = await a.c.request('session.create', { title: 'fidelity', cwd: root });
    const sid = session.id;
    const first = (await a.c.request('session.attach', { session_id: sid })) as AttachResult;

    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${approve}` } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: join(root, 'no-such-file.txt') } }] },
      { text: 'Cleaned up; the file was missing.' },
    );
    await a.c.request('prompt.submit', { session_id: sid, text: 'clean up' });
    await a.until(is('turn.end', sid), 'turn 1 end');
    const after1 = a.lastSeq(sid);

    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${denied}` } }] },
      { text: 'Left it alone.' },
    );
    await a.c.request('prompt.submit', { session_id: sid, text: 'and this one' });
    await a.until(is('turn.end', sid, after1), 'turn 2 end');
    const after2 = a.lastSeq(sid);

    model.push({ error: { status: 400, message: 'bad request from the fake model' } });
    await a.c.request('prompt.submit', { session_id: sid, text: 'fail please' });
    await a.until(is('turn.end', sid, after2), 'turn 3 end');
    expect(asked).toHaveLength(2);

    const connectionId = a.c.server!.connection_id;
    const now = Date.now();
    // live: what the TUI of this connection reduced while the turns ran
    let live = sessionReducer(initialSessionState(), { type: 'connected', connectionId, profile: 'default' });
    live = sessionReducer(live, { type: 'attach', result: first, now });
    for (const q of asked) {
      const view = requestView('approval', q.id, q.params);
      if (view) live = sessionReducer(live, { type: 'request', request: view });
    }
    for (const ev of a.of(sid) as WireEvent[]) live = sessionReducer(live, { type: 'event', event: ev, now });

    // history: the same connection attaching afresh (a snapshot of the stored messages)
    const snap = (await a.c.request('session.attach', { session_id: sid })) as AttachResult;
    expect(snap.kind).toBe('snapshot');
    let fromHistory = sessionReducer(initialSessionState(), {
      type: 'connected',
      connectionId,
      profile: 'default',
    });
    fromHistory = sessionReducer(fromHistory, { type: 'attach', result: snap, now });

    const liveFrame = await frame(live);
    const historyFrame = await frame(fromHistory);
    expect(liveFrame).toContain('✓ Approved once (answered here)');
    expect(liveFrame).toContain('✗ Denied (answered here)');
    expect(liveFrame).toMatch(/✓ \S+/);
    expect(liveFrame).toMatch(/✗ \S+/);
    expect(liveFrame).toContain('Error: ');
    expect(historyFrame).not.toMatch(/^• /m);
    if (process.env.SHOW_FRAMES) console.log(`${liveFrame}\n=====\n${historyFrame}`);
    expect(historyFrame).toBe(liveFrame);
  });
});
