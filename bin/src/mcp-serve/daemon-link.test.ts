import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfIdentity } from '@hermes/client';
import { startTestServer, waitFor, type TestServer } from '@hermes/client/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DaemonLink, type AskedApproval } from './daemon-link.js';

let root: string;
let server: TestServer;
let link: DaemonLink | undefined;
const logs: string[] = [];

/** Writes the discovery file of the test server (this process stands for the daemon). */
function discover(): void {
  const me = selfIdentity();
  writeFileSync(
    join(root, 'tui-gateway.json'),
    JSON.stringify({ ...me, port: server.port, token: server.token, version: 't', epoch: server.epoch }),
  );
}

function makeLink(start: () => Promise<void> = async () => discover()): DaemonLink {
  link = new DaemonLink({ root, profile: 'work', version: '1.2.3', start, log: (l) => logs.push(l) });
  return link;
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'hermes-mcp-link-'));
  server = await startTestServer();
  server.handlers.set('session.attach', () => ({ kind: 'snapshot', open_requests: [] }));
  server.handlers.set('session.detach', () => ({ ok: true }));
});
afterEach(async () => {
  await link?.close();
  link = undefined;
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('DaemonLink', () => {
  it('starts the daemon when none runs, then initializes in the profile with the approvals capability', async () => {
    let started = 0;
    const c = await makeLink(async () => {
      started++;
      discover();
    }).client();
    expect(started).toBe(1);
    const init = server.conns[0]!.requests.find((r) => r.method === 'initialize')!;
    expect(init.params).toMatchObject({
      profile: 'work',
      client: { name: 'hermes-mcp-serve', version: '1.2.3' },
      capabilities: { approvals: true, clarify: false },
    });
    expect(await link!.client()).toBe(c); // one connection for every call
  });

  it('hears approval requests and never answers them', async () => {
    discover();
    const l = makeLink();
    const heard: AskedApproval[] = [];
    l.onApproval((p) => heard.push(p));
    const c = await l.client();
    const conn = server.conns[0]!;
    conn.send({
      jsonrpc: '2.0',
      id: 'srq-1',
      method: 'approval.request',
      params: {
        session_id: 's1',
        request_id: 'apr-1',
        kind: 'approval',
        command: 'rm -rf build',
        description: 'recursive delete',
        choices: ['once', 'session', 'always', 'deny'],
      },
    });
    await waitFor(() => heard.length === 1);
    await c.request('ping'); // a reply, had there been one, would have been sent before this
    expect(conn.answers.size).toBe(0);
    expect(heard[0]).toMatchObject({ request_id: 'apr-1', command: 'rm -rf build' });
  });

  it('attaches a session per holder and detaches it when the last one lets go', async () => {
    discover();
    const l = makeLink();
    const a = await l.hold('s1');
    const b = await l.hold('s1');
    const detaches = () => server.conns[0]!.requests.filter((r) => r.method === 'session.detach').length;
    await a.release();
    await a.release(); // twice counts once
    expect(detaches()).toBe(0);
    await b.release();
    expect(detaches()).toBe(1);
  });

  it('connects again on the next call after the connection dropped', async () => {
    discover();
    const l = makeLink();
    const first = await l.client();
    server.conns[0]!.ws.terminate();
    await first.closed;
    const second = await l.client();
    expect(second).not.toBe(first);
    expect(server.conns).toHaveLength(2);
    expect(logs.join('\n')).toContain('reconnecting on the next call');
  });
});
