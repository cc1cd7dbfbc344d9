/**
 * Text written to a background process's stdin is judged like a command (run `npm run build`
 * first): the daemon is `hermes gateway start` in a temp root (sandbox off, so only the approval
 * guard stands between the model and the folder), the model a scripted server, the client a real
 * WebSocket connection that answers approvals. The model starts `bash` in the background (a safe
 * command: it runs unasked), then writes `rm -rf FOLDER` into it with the `process` tool: that
 * write is asked like the same command through `terminal`; denied, it never reaches the shell and
 * the folder survives. `mkfs` of a disk written into it is refused by the floor without asking.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerRequestParams } from '@hermes/core/protocol';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const fx = useGateway('hermes-process-write-', (root, url) =>
  writeConfig(root, url, 'terminal:\n  sandbox: off\n'),
);

/** The content of the tool results of the session's events after seq `after`. */
function toolResults(sid: string, after: number): Array<{ ok: boolean; detail?: string; blocked?: unknown }> {
  return fx.client
    .of(sid, after)
    .filter(is('tool.complete', sid))
    .map((e) => ({
      ok: e.payload.ok,
      ...(e.payload.detail !== undefined ? { detail: e.payload.detail } : {}),
      ...(e.payload.blocked ? { blocked: e.payload.blocked } : {}),
    }));
}

describe('process write into a background shell', () => {
  it('is asked like the command it carries; denied, the folder survives; the floor refuses mkfs', async () => {
    const { c, until } = fx.client;
    const victim = join(fx.root, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    const asked: Array<ServerRequestParams<'approval.request'>> = [];
    c.onServerRequest('approval.request', (p) => {
      asked.push(p);
      return { choice: 'deny' };
    });
    const { session } = await c.request('session.create', { title: 'bg shell', cwd: fx.root });
    const sid = session.id;
    await c.request('session.attach', { session_id: sid });

    // turn 1: a shell in the background (not a dangerous command by itself)
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'bash', background: true } }] },
      { text: 'started' },
    );
    await c.request('prompt.submit', { session_id: sid, text: 'start a shell' });
    await until(is('turn.end', sid), 'turn 1 ended', 30_000);
    expect(asked).toHaveLength(0);
    const shell = (await c.request('process.list', {})).processes.find((p) => p.command === 'bash');
    expect(shell?.state).toBe('running');
    const id = shell!.id;

    // turn 2: the delete written into the shell is asked, denied, never written
    const before = fx.client.lastSeq(sid);
    fx.model.push(
      {
        toolCalls: [
          { name: 'process', arguments: { action: 'write', id, data: `rm -rf ${victim}\necho wrote-it\n` } },
        ],
      },
      { toolCalls: [{ name: 'process', arguments: { action: 'write', id, data: 'mkfs.ext4 /dev/sdz9\n' } }] },
      { text: 'done' },
    );
    await c.request('prompt.submit', { session_id: sid, text: 'delete it through the shell' });
    await until(is('turn.end', sid, before), 'turn 2 ended', 30_000);

    expect(asked.map((a) => a.command)).toHaveLength(1);
    expect(asked[0]!.command).toContain(`rm -rf ${victim}`);
    const results = toolResults(sid, before);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ ok: false, blocked: { reason: 'denied' } });
    expect(results[1]).toMatchObject({ ok: false, blocked: { reason: 'floor' } });
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);
    // nothing reached the shell: it printed nothing
    const entry = (await c.request('process.list', {})).processes.find((p) => p.id === id)!;
    expect(entry.state).toBe('running');
    expect(readFileSync(entry.log, 'utf8')).not.toContain('wrote-it');
    await c.request('process.kill', { id });
  });
});
