/**
 * `session.approvals.set` loosens a session's approvals only for a client attached to that session
 * that answers approvals — the rule `config.set` applies to the profile's settings (run
 * `npm run build` first): the daemon is `hermes gateway start` in a temp root (sandbox off), the
 * model a scripted server, the clients real WebSocket connections. A script that holds the
 * daemon's token but answers no approvals, or an approver not attached to the session, gets
 * -32009 for `off`; the session stays in `manual`, so the next `rm -rf` is still asked (and, denied,
 * the folder survives). Making it stricter needs nothing, and the attached approver may loosen it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, RpcCallError, type DaemonClient } from '@hermes/client';
import { RpcErrorCode, type ServerRequestParams } from '@hermes/core/protocol';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-mode-gate-', (root, url) =>
  writeConfig(root, url, 'terminal:\n  sandbox: off\n'),
);
const others: DaemonClient[] = [];
afterEach(async () => {
  for (const c of others.splice(0)) await c.close();
});

/** The error `call` was refused with. */
async function refusal(call: Promise<unknown>): Promise<RpcCallError> {
  const r = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(r instanceof RpcCallError)) throw new Error(`expected an RpcCallError, got ${String(r)}`);
  return r;
}

describe('session.approvals.set', () => {
  it('refuses to loosen a session for a client that is not its attached approver', async () => {
    const { c, until } = fx.client;
    const asked: Array<ServerRequestParams<'approval.request'>> = [];
    c.onServerRequest('approval.request', (p) => {
      asked.push(p);
      return { choice: 'deny' };
    });
    const { session } = await c.request('session.create', { title: 'gated', cwd: fx.root });
    const sid = session.id;
    await c.request('session.attach', { session_id: sid });

    const script = await connect({ root: fx.root }, { name: 'script', capabilities: { approvals: false } });
    const stranger = await connect(
      { root: fx.root },
      { name: 'stranger', capabilities: { approvals: true } },
    );
    others.push(script, stranger);
    await script.request('session.attach', { session_id: sid });
    for (const who of [script, stranger]) {
      const e = await refusal(who.request('session.approvals.set', { session_id: sid, mode: 'off' }));
      expect(e.code).toBe(RpcErrorCode.NotPermitted);
      expect(e.message).toContain('loosens approvals.mode');
    }
    // stricter (or the same) needs nothing
    expect(await script.request('session.approvals.set', { session_id: sid, mode: 'manual' })).toEqual({
      mode: 'manual',
      own: true,
    });

    const victim = join(fx.root, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'ok' },
    );
    await c.request('prompt.submit', { session_id: sid, text: 'clean up' });
    await until(is('turn.end', sid), 'the turn ended', 30_000);
    expect(asked.map((a) => a.command)).toEqual([`rm -rf ${victim}`]);
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);

    // the attached approver may
    expect(await c.request('session.approvals.set', { session_id: sid, mode: 'off' })).toEqual({
      mode: 'off',
      own: true,
    });
  });
});
