/**
 * A sub-agent's dangerous command is judged by its session's approval settings as they are now
 * (run `npm run build` first): the daemon is `hermes gateway start` in a temp root, the model a
 * scripted server, the client a real WebSocket connection. A session in mode `off` starts a
 * `delegate_task`; while the sub-agent runs, the user makes the session stricter (`manual`),
 * which applies at once, also to a running turn — so the sub-agent's next `rm -rf` asks, and
 * after a deny the folder is still there.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerRequestParams } from '@hermes/core/protocol';
import { deferred, is, useGateway } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-subagent-approval-');

describe('a sub-agent under its session approval settings', () => {
  it('asks for its dangerous command once the session was made stricter during its run', async () => {
    const { c, until } = fx.client;
    const victim = join(fx.root, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    const asked = deferred<ServerRequestParams<'approval.request'>>();
    c.onServerRequest('approval.request', (p) => {
      asked.resolve(p);
      return { choice: 'deny' };
    });

    const { session } = await c.request('session.create', { title: 'delegating', cwd: fx.root });
    await c.request('session.attach', { session_id: session.id });
    // the user runs this session without approvals (from its next turn: now, it is idle)
    await c.request('session.approvals.set', { session_id: session.id, mode: 'off' });
    const gate = join(fx.root, 'gate');
    fx.model.push(
      // the parent delegates
      {
        toolCalls: [
          {
            name: 'delegate_task',
            arguments: { goal: 'clean up the victim folder', toolsets: ['terminal'] },
          },
        ],
      },
      // the sub-agent waits for the test's signal (a safe command), then deletes
      {
        toolCalls: [
          { name: 'terminal', arguments: { command: `while [ ! -e ${gate} ]; do sleep 0.05; done` } },
        ],
      },
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'sub-agent done' },
      { text: 'parent done' },
    );
    await c.request('prompt.submit', { session_id: session.id, text: 'delegate the clean-up' });
    // the sub-agent's safe command runs: the session is made stricter now, mid-turn
    await until(
      (e) => is('subagent.progress', session.id)(e) && e.payload.kind === 'tool.start',
      'the sub-agent started its first command',
    );
    const set = await c.request('session.approvals.set', { session_id: session.id, mode: 'manual' });
    expect(set.mode).toBe('manual');
    writeFileSync(gate, '');

    const request = await Promise.race([
      asked.promise,
      until(is('turn.end', session.id), 'the turn ended', 30_000).then(() => undefined),
    ]);
    expect(request?.command, 'the sub-agent ran rm -rf without asking').toBe(`rm -rf ${victim}`);
    await until(is('turn.end', session.id), 'the turn ended', 30_000);
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);
  });
});
