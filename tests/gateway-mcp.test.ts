/**
 * MCP servers in the daemon: a profile's servers start with its runtime,
 * `/mcp` reports them, and a session opened once they are ready calls their tools. Another
 * profile never sees them. A server that crashes is restarted by the daemon, which tells its
 * clients (`mcp.status`), and an open session calls it again. Run `npm run build` first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WireEvent, WireEventOf } from '@hermes/core/protocol';
import { connect } from '@hermes/client';
import { waitFor } from './support/gateway-process.js';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const echo = join(process.cwd(), 'tests', 'support', 'mcp-echo-server.ts');

const gw = useGateway('hermes-mcp-', (root, url) => {
  writeConfig(
    root,
    url,
    `mcp_servers:\n  echo:\n    command: ${process.execPath}\n    args: ["--import", "tsx", ${JSON.stringify(echo)}]\n    cwd: ${JSON.stringify(process.cwd())}\n`,
  );
  mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
  writeFileSync(
    join(root, 'profiles', 'work', 'config.yaml'),
    `model:\n  provider: custom\n  base_url: ${url}\n  default: fake\n`,
  );
});

describe('MCP in the daemon', () => {
  it("offers the profile's MCP tools and runs them; /mcp shows the server", async () => {
    const { client, root, model } = gw;
    const probe = await client.c.request('session.create', { cwd: root });
    await waitFor(
      async () => {
        const r = await client.c.request('slash.exec', { session_id: probe.session.id, command: '/mcp' });
        return /echo \(stdio\) ready/.test(r.output) ? r : undefined;
      },
      'the echo MCP server to be ready',
      20_000,
    );
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'mcp_echo_echo', arguments: { text: 'via-daemon-mcp' } }] },
      { text: 'echoed' },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'echo it' });
    await client.until(is('turn.end', session.id), 'the turn ends');
    const offered = model.requests[before]!.body.tools as Array<{ function: { name: string } }>;
    expect(offered.map((t) => t.function.name)).toContain('mcp_echo_echo');
    const msgs = model.requests[before + 1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.find((m) => m.role === 'tool')?.content).toContain('echo: via-daemon-mcp');
  }, 40_000);

  it('a crashed server restarts by itself: clients get mcp.status, the open session calls it again', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const mark = client.events.length;
    const mcpStatus =
      (state: string) =>
      (e: WireEvent): e is WireEventOf<'mcp.status'> =>
        e.type === 'mcp.status' &&
        e.session_id === '*' &&
        e.payload.server === 'echo' &&
        e.payload.state === state &&
        client.events.indexOf(e) >= mark;

    model.push({ toolCalls: [{ name: 'mcp_echo_exit', arguments: { code: 3 } }] }, { text: 'it crashed' });
    await client.c.request('prompt.submit', { session_id: session.id, text: 'crash the server' });
    await client.until(is('turn.end', session.id), 'the crashing turn ends');
    const down = await client.until(mcpStatus('backoff'), 'echo backing off');
    expect(down.payload).toMatchObject({ profile: 'default', transport: 'stdio', attempt: 1 });
    expect(String(down.payload.error)).toContain('the server exited with code 3');
    expect(down.payload.retry_at).toEqual(expect.any(Number));
    const up = await client.until(mcpStatus('ready'), 'echo ready again', 20_000);
    expect(up.payload.tools).toContain('mcp_echo_echo');

    const after = client.lastSeq(session.id);
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'mcp_echo_echo', arguments: { text: 'after-restart' } }] },
      { text: 'echoed again' },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'echo again' });
    await client.until(is('turn.end', session.id, after), 'the next turn ends');
    const offered = model.requests[before]!.body.tools as Array<{ function: { name: string } }>;
    expect(offered.map((t) => t.function.name)).toContain('mcp_echo_echo');
    const msgs = model.requests[before + 1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.filter((m) => m.role === 'tool').at(-1)?.content).toContain('echo: after-restart');
    const r = await client.c.request('slash.exec', { session_id: session.id, command: '/mcp' });
    expect(r.output).toMatch(/● echo \(stdio\) ready/);
  }, 40_000);

  it('another profile does not see them', async () => {
    const { root } = gw;
    const work = await connect(
      { root },
      { name: 'mcp-work', capabilities: { approvals: false }, profile: 'work' },
    );
    try {
      const { session } = await work.request('session.create', { cwd: root });
      const r = await work.request('slash.exec', { session_id: session.id, command: '/mcp' });
      expect(r.output).toMatch(/No MCP servers configured/);
    } finally {
      await work.close();
    }
  });
});
