/**
 * A cron job the model schedules with the `cronjob` tool runs unattended; under
 * `approvals.cron_mode: allow` its dangerous commands run without anyone asked. So creating one
 * (or changing what one runs) is asked first, as `hermes cron add` through `terminal` is (run
 * `npm run build` first): the daemon is `hermes gateway start` in a temp root (sandbox off), the
 * model a scripted server, the client a real WebSocket connection that denies. Denied, no job is
 * stored — nothing can run the delete later — and the folder is still there. Under the default
 * `cron_mode: deny` nothing is asked (such a job cannot run dangerous commands).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerRequestParams } from '@hermes/core/protocol';
import { jobsOf } from './support/cron-kit.js';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-cronjob-approval-', (root, url) =>
  writeConfig(root, url, 'approvals:\n  cron_mode: allow\nterminal:\n  sandbox: off\n'),
);

describe('the cronjob tool under approvals.cron_mode: allow', () => {
  it('asks before it schedules a job; denied, no job is stored and the folder survives', async () => {
    const { c, until } = fx.client;
    const victim = join(fx.root, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    const asked: Array<ServerRequestParams<'approval.request'>> = [];
    c.onServerRequest('approval.request', (p) => {
      asked.push(p);
      return { choice: 'deny' };
    });
    const { session } = await c.request('session.create', { title: 'scheduling', cwd: fx.root });
    const sid = session.id;
    await c.request('session.attach', { session_id: sid });
    fx.model.push(
      {
        toolCalls: [
          {
            name: 'cronjob',
            arguments: { action: 'create', schedule: 'every 1m', prompt: `run rm -rf ${victim}` },
          },
        ],
      },
      { text: 'scheduled?' },
    );
    await c.request('prompt.submit', { session_id: sid, text: 'schedule the clean-up' });
    await until(is('turn.end', sid), 'the turn ended', 30_000);

    expect(asked).toHaveLength(1);
    expect(asked[0]!.command).toContain(`rm -rf ${victim}`);
    const done = fx.client.of(sid).filter(is('tool.complete', sid));
    expect(done.map((e) => [e.payload.ok, e.payload.blocked?.reason])).toEqual([[false, 'denied']]);
    expect(jobsOf(fx.root)).toEqual([]);
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);
  });
});
