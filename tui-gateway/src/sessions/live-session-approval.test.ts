/**
 * The `approval.request` a live session sends its clients carries what `session` and `always`
 * would approve (`allows`, the guard's entries), so every card can say it.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@hermes/core/approvals';
import type { Connection } from '../rpc/types.js';
import type { AgentHooks } from './live-session.js';
import { bareLiveSession, emptyStore } from './testing.js';

describe('LiveSession approval requests', () => {
  it('send the entries session/always would store, and return the client’s choice', async () => {
    const entry = 'recursive-delete: rm -f -r [/p/build]';
    const sent: Array<{ method: string; params: Record<string, unknown> }> = [];
    const conn = {
      id: 'c-1',
      clientName: 'test',
      capabilities: { approvals: true },
      profile: 'default',
      closed: false,
      notify: () => {},
      request: async (method: string, params: Record<string, unknown>) => {
        sent.push({ method, params });
        return { choice: 'session' };
      },
      onClose: () => {},
    } as unknown as Connection;
    let answer: unknown;
    const live = bareLiveSession(
      emptyStore(),
      (hooks: AgentHooks) => ({
        runTurn: async () => {
          const req: ApprovalRequest = {
            requestId: 'r1',
            sessionId: 's1',
            command: 'rm -rf build',
            description: 'recursive delete',
            patternKeys: ['recursive-delete'],
            allows: [entry],
            choices: ['once', 'session', 'always', 'deny'],
          };
          answer = await hooks.onApproval(req, new AbortController().signal);
          return { status: 'complete', text: 'ok' };
        },
      }),
      { approvalTimeoutS: 30 },
    );
    live.attach(conn);
    live.submit('go');
    await live.idle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('approval.request');
    expect(sent[0]!.params).toMatchObject({ command: 'rm -rf build', allows: [entry] });
    expect(answer).toMatchObject({ choice: 'session' });
  });
});
