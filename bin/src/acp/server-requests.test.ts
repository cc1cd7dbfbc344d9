import { describe, expect, it } from 'vitest';
import type { AgentContext, SessionUpdate } from '@agentclientprotocol/sdk';
import { NO_REPLY, type DaemonClient } from '@hermes/client';
import type { AcpSession } from './agent.js';
import { EventTranslator } from './event-map.js';
import { serveServerRequests } from './server-requests.js';

type Handler = (p: Record<string, unknown>) => Promise<unknown>;

/** A daemon that records the handlers and the requests sent, and an editor that answers `optionId`. */
function setup(o: { optionId?: string; fs?: boolean; settled?: string[] } = {}) {
  const handlers = new Map<string, Handler>();
  const sent: [string, unknown][] = [];
  const daemon = {
    onServerRequest: (method: string, h: Handler) => handlers.set(method, h),
    request: (method: string, params: unknown) => {
      sent.push([method, params]);
      return Promise.resolve({});
    },
  } as unknown as DaemonClient;
  const asked: unknown[] = [];
  const editor = {
    request: (method: string, params: Record<string, unknown>) => {
      asked.push([method, params]);
      if (method === 'fs/read_text_file') return Promise.resolve({ content: 'buffer text' });
      return Promise.resolve({ outcome: { outcome: 'selected', optionId: o.optionId ?? 'once' } });
    },
  } as unknown as AgentContext;
  const session: AcpSession = {
    id: 's1',
    translator: new EventTranslator('/w'),
    own: new Set(),
    waiting: new Map(),
    holds: 0,
    held: [],
    asking: new Map(),
    cwd: '/w',
  };
  const updates: SessionUpdate[] = [];
  serveServerRequests({
    daemon,
    log: () => undefined,
    sessionOf: (id) => (id === 's1' ? session : undefined),
    editor: () => editor,
    editorFs: () => ({ readTextFile: o.fs ?? false, writeTextFile: o.fs ?? false }),
    settled: new Set(o.settled ?? []),
    send: (_id, u) => {
      updates.push(...u);
      return Promise.resolve();
    },
  });
  return { call: (m: string, p: Record<string, unknown>) => handlers.get(m)!(p), sent, asked, updates };
}

const approval = {
  session_id: 's1',
  request_id: 'r1',
  command: 'rm -rf build',
  description: 'delete',
  choices: ['once', 'deny'],
};

describe('serveServerRequests', () => {
  it('asks an approval in the editor and answers the daemon with the chosen choice', async () => {
    const t = setup({ optionId: 'once' });
    expect(await t.call('approval.request', approval)).toBe(NO_REPLY);
    expect(t.asked).toHaveLength(1);
    expect(t.sent).toEqual([['approval.answer', { session_id: 's1', request_id: 'r1', choice: 'once' }]]);
    expect(t.updates).toMatchObject([{ sessionUpdate: 'tool_call_update', status: 'in_progress' }]);
  });

  it('does not ask a question another client already settled', async () => {
    const t = setup({ settled: ['r1'] });
    expect(await t.call('approval.request', approval)).toBe(NO_REPLY);
    expect(t.asked).toEqual([]);
    expect(t.sent).toEqual([]);
  });

  it('reads files through the editor only when it offers fs', async () => {
    await expect(setup().call('file.read', { session_id: 's1', path: '/w/a' })).rejects.toThrow(
      'does not serve',
    );
    expect(await setup({ fs: true }).call('file.read', { session_id: 's1', path: '/w/a' })).toEqual({
      content: 'buffer text',
    });
  });
});
