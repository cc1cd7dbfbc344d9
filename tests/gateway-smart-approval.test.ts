/**
 * `approvals.mode: smart` across real processes (run `npm run build` first): the daemon is
 * `hermes gateway start` in a temp root, the model (and the smart reviewer) a scripted server in
 * this process, the client a real WebSocket connection that can answer approvals. A low-risk
 * flagged command runs with no `approval.request`, the wire carries `approval.smart` with the
 * reviewer's reason, and `session.history` shows the approval as made by the smart check.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-smart-', (root, url) =>
  writeConfig(root, url, 'approvals:\n  mode: smart\n  smart_model: judge\n'),
);

const verdict = (v: string, reason: string) => ({ text: JSON.stringify({ verdict: v, reason }) });

describe('smart approvals through the daemon', () => {
  it('a low-risk flagged command runs without an approval.request; the event and history name the smart check', async () => {
    const { client, model, root } = fx;
    const asked: unknown[] = [];
    client.c.onServerRequest('approval.request', (p) => {
      asked.push(p);
      return { choice: 'deny' };
    });
    const dir = join(root, 'build-out');
    mkdirSync(dir);
    const { session } = await client.c.request('session.create', { title: 'smart', cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
      verdict('APPROVE', 'removes a build output folder'),
      { text: 'cleaned' },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'clean up' });
    await client.until(is('turn.end', session.id), 'turn.end');

    expect(asked).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    expect((model.requests[before + 1]!.body as { model: string }).model).toBe('judge');
    const smart = client.of(session.id).find((e) => e.type === 'approval.smart');
    expect(smart?.payload).toMatchObject({ verdict: 'approve', reason: 'removes a build output folder' });

    const history = await client.c.request('session.history', { session_id: session.id });
    const tool = history.messages.find((m) => m.role === 'tool');
    expect(tool?.outcome?.approvals).toEqual([
      { choice: 'once', by: 'smart', reason: 'removes a build output folder' },
    ]);
  });

  it('a malformed verdict falls back to an approval.request with all four choices', async () => {
    const { client, model, root } = fx;
    const asked: Array<{ choices: string[]; description: string }> = [];
    client.c.onServerRequest('approval.request', (p) => {
      asked.push(p);
      return { choice: 'deny' };
    });
    const dir = join(root, 'keep-me');
    mkdirSync(dir);
    const { session } = await client.c.request('session.create', { title: 'smart-bad', cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
      { text: 'Sure, APPROVE' },
      { text: 'not deleted' },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'clean up' });
    await client.until(is('turn.end', session.id), 'turn.end');

    expect(asked).toHaveLength(1);
    expect(asked[0]!.choices).toEqual(['once', 'session', 'always', 'deny']);
    expect(asked[0]!.description).toMatch(/smart check: no verdict/);
    expect(existsSync(dir)).toBe(true);
  });
});
