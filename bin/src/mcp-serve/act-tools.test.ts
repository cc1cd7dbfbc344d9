import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpToolHarness, type McpToolHarness } from '../testing.js';

let h: McpToolHarness;
beforeEach(async () => {
  h = await startMcpToolHarness();
});
afterEach(async () => {
  await h.close();
});

/** The JSON inside the data element of a result. */
function data(r: { content: { text: string }[] }): Record<string, unknown> {
  const m = /<hermes_session_data>\n([\s\S]*)\n<\/hermes_session_data>$/.exec(r.content[0]!.text);
  if (!m) throw new Error(`no data in ${r.content[0]!.text}`);
  return JSON.parse(m[1]!) as Record<string, unknown>;
}

const methods = (): string[] => h.daemon.conns.flatMap((c) => c.requests.map((r) => r.method));

const APPROVAL = {
  session_id: 's1',
  request_id: 'apr-1',
  kind: 'approval',
  command: 'rm -rf build',
  description: 'recursive delete',
  choices: ['once', 'session', 'always', 'deny'],
  expires_at: 2_000_000_000_000,
};

describe('session_send', () => {
  it('refuses cwd or title for an existing session, before asking the daemon anything', async () => {
    const r = await h.call('session_send', { session_id: 's1', prompt: 'hi', cwd: '/tmp' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('cwd and title apply to a new session only');
    expect(methods()).not.toContain('prompt.submit');
  });

  it('returns when the turn asks for an approval: waiting_for_approval, never answered, no "always"', async () => {
    h.daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('turn.start', 's1', 1, { prompt_id: 'p1', text: 'hi' });
        conn.send({ jsonrpc: '2.0', id: 'srq-1', method: 'approval.request', params: APPROVAL });
      }, 5);
      return { prompt_id: 'p1', status: 'started' };
    });
    const r = await h.call('session_send', { session_id: 's1', prompt: 'hi' });
    const d = data(r);
    expect(d).toMatchObject({ session_id: 's1', prompt_id: 'p1', turn: 'waiting_for_approval' });
    expect(d.approval).toMatchObject({
      request_id: 'apr-1',
      command: 'rm -rf build',
      choices: ['once', 'session', 'deny'],
    });
    expect(h.daemon.conns[0]!.answers.size).toBe(0);
    expect(methods().filter((m) => m === 'session.detach')).toHaveLength(1); // let go once done
  });

  it('stops waiting after timeout_s with the text so far; the turn is not interrupted', async () => {
    h.daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('turn.start', 's1', 1, { prompt_id: 'p1', text: 'hi' });
        conn.event('message.delta', 's1', 2, { text: 'still ' });
        conn.event('message.delta', 's1', 3, { text: 'thinking' });
      }, 5);
      return { prompt_id: 'p1', status: 'started' };
    });
    const r = await h.call('session_send', { session_id: 's1', prompt: 'hi', timeout_s: 1 });
    expect(r.content[0]!.text).toMatch(/^No final reply within 1 s; the turn goes on in session s1/);
    expect(data(r)).toMatchObject({ turn: 'running', reply_so_far: 'still thinking' });
    expect(methods()).not.toContain('session.interrupt');
  });

  it('takes the last reply of its own turn, not of the turn before it', async () => {
    h.daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('message.complete', 's1', 1, { text: 'an older turn', status: 'complete', usage: {} });
        conn.event('turn.end', 's1', 2, { prompt_id: 'p0', status: 'complete' });
        conn.event('turn.start', 's1', 3, { prompt_id: 'p1', text: 'hi' });
        conn.event('message.complete', 's1', 4, { text: 'Let me look.', status: 'complete', usage: {} });
        conn.event('message.complete', 's1', 5, { text: 'Done.', status: 'complete', usage: {} });
        conn.event('turn.end', 's1', 6, { prompt_id: 'p1', status: 'complete' });
      }, 5);
      return { prompt_id: 'p1', status: 'queued' };
    });
    const d = data(await h.call('session_send', { session_id: 's1', prompt: 'hi' }));
    expect(d).toMatchObject({ turn: 'complete', reply: 'Done.', queued: true });
  });
});

describe('approvals', () => {
  it('approvals_list reads the live sessions only, and offers no "always"', async () => {
    h.daemon.handlers.set('session.list', () => ({
      sessions: [
        { id: 's1', title: 'one', live: true },
        { id: 's2', title: 'two', live: false },
      ],
    }));
    h.daemon.handlers.set('session.attach', (p) => ({
      kind: 'snapshot',
      open_requests:
        p.session_id === 's1'
          ? [{ request_id: 'apr-1', kind: 'approval', params: APPROVAL, created_at: 1, expires_at: 2 }]
          : [],
    }));
    const d = data(await h.call('approvals_list', {}));
    expect(d.approvals).toEqual([
      expect.objectContaining({
        session_id: 's1',
        request_id: 'apr-1',
        choices: ['once', 'session', 'deny'],
      }),
    ]);
    const attached = h.daemon.conns[0]!.requests.filter((r) => r.method === 'session.attach');
    expect(attached.map((r) => r.params.session_id)).toEqual(['s1']);
  });

  it('approval_answer refuses an id that is not open without sending an answer', async () => {
    const r = await h.call('approval_answer', { session_id: 's1', request_id: 'apr-9', choice: 'once' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('no pending approval "apr-9" in session s1');
    expect(methods()).not.toContain('approval.answer');
  });

  it("approval_answer passes the daemon's refusal on (another window answered first)", async () => {
    h.daemon.handlers.set('session.attach', () => ({
      kind: 'snapshot',
      open_requests: [
        { request_id: 'apr-1', kind: 'approval', params: APPROVAL, created_at: 1, expires_at: 2 },
      ],
    }));
    h.daemon.handlers.set('approval.answer', () => {
      throw {
        code: -32003,
        message: 'approval request "apr-1" is already resolved: it was answered first by client:tui',
      };
    });
    const r = await h.call('approval_answer', { session_id: 's1', request_id: 'apr-1', choice: 'once' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('answered first by client:tui');
  });
});
