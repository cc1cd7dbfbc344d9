/**
 * The sandbox follows the session's lane, end to end in the real daemon: a cron job, a
 * chat-platform (webhook) turn and an API server turn run sandboxed by default, so their terminal command cannot write
 * outside their folder and the model is told "blocked by the sandbox"; a TUI session runs on the
 * bare host by default and in the sandbox once `terminal.sandbox.tui` says so.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type DaemonClient } from '@hermes/client';
import { signedHeaders } from '@hermes/platform-webhook';
import type { CronJob } from '@hermes/core/cron';
import { describeBwrap } from './support/bwrap.js';
import { jobsOf, makeDue } from './support/cron-kit.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { freePort } from './support/ngircd.js';
import { gatewayStatus, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

const SECRET = 'webhook-secret-0123456789';
const API_KEY = 'test-key-0123456789abcdef';
let apiPort: number;
let model: FakeModelServer;
let root: string;
let outside: string;
let inbound: string;
let receiver: Server;
let client: DaemonClient | undefined;

/** Queues a terminal call writing `<outside>/<name>` and the final answer after it. */
function scriptWrite(name: string): string {
  const file = join(outside, name);
  model.push(
    { toolCalls: [{ name: 'terminal', arguments: { command: `echo written > ${file}` } }] },
    { text: 'done' },
  );
  return file;
}

/** The tool result the model saw for the call that wrote `file` (the request after it). */
async function toolResultFor(file: string): Promise<string> {
  return waitFor(() => {
    for (const r of model.requests) {
      const msgs = (r.body as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
      const last = msgs[msgs.length - 1];
      if (last?.role === 'tool' && JSON.stringify(msgs).includes(file)) return String(last.content);
    }
    return undefined;
  }, `the tool result of the write to ${file}`);
}

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { text: 'done' } });
  // outside /tmp: inside the sandbox /tmp is the session's own temp folder
  outside = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : process.cwd(), 'hermes-sbx-e2e-'));
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = await freePort();
  apiPort = await freePort();
  inbound = `http://127.0.0.1:${port}/hooks/in`;
  root = makeTestHome({
    modelUrl: model.url,
    env: `WEBHOOK_SECRET=${SECRET}\nAPI_SERVER_KEY=${API_KEY}\n`,
    config: [
      'timezone: UTC',
      'cron:',
      '  tick_interval: 1',
      'platforms:',
      '  webhook:',
      '    enabled: true',
      `    port: ${port}`,
      '    path: /hooks/in',
      `    outbound_url: http://127.0.0.1:${(receiver.address() as AddressInfo).port}/replies`,
      '  api_server:',
      '    enabled: true',
      `    port: ${apiPort}`,
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'webhook');
  await waitFor(
    async () =>
      (await gatewayStatus(root)).platforms?.find(
        (p) => p.platform === 'api_server' && p.state === 'connected',
      ),
    'the API server to listen',
    20_000,
  );
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await stopDaemon(root);
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await model?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

describeBwrap('the sandbox per lane, in the daemon', () => {
  it('a cron job runs sandboxed by default: its write outside is blocked and the run is blocked', async () => {
    const file = scriptWrite('cron.txt');
    const added = await runHermes(root, [
      'cron',
      'add',
      'every 1h',
      'Write the report',
      '--name',
      'report',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const job = JSON.parse(added.stdout) as CronJob;
    await makeDue(root, job.id);
    await waitFor(
      () => jobsOf(root).find((j) => j.id === job.id)?.last_status === 'blocked',
      'the cron run to end blocked',
    );
    expect(await toolResultFor(file)).toContain('blocked by the sandbox');
    expect(existsSync(file)).toBe(false);
    expect(jobsOf(root)[0]!.last_error).toContain('Cron jobs run in the sandbox');
  });

  it('a chat-platform turn runs sandboxed by default', async () => {
    const file = scriptWrite('webhook.txt');
    const body = JSON.stringify({ text: 'please write it', conversation: 'ci', user: 'ci-bot' });
    const r = await fetch(inbound, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, body) },
      body,
    });
    expect(r.status).toBe(202);
    expect(await toolResultFor(file)).toContain('blocked by the sandbox');
    expect(existsSync(file)).toBe(false);
  });

  it('an API server turn runs sandboxed by default', async () => {
    const file = scriptWrite('api.txt');
    const r = await fetch(`http://127.0.0.1:${apiPort}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content: 'write it' }] }),
    });
    expect(r.status).toBe(200);
    expect(await toolResultFor(file)).toContain('blocked by the sandbox');
    expect(existsSync(file)).toBe(false);
  });

  it('a TUI turn follows terminal.sandbox.tui: off by default, sandboxed when set', async () => {
    client = await connect({ root }, { name: 'sandbox-test', capabilities: { approvals: false } });
    const free = scriptWrite('tui-default.txt');
    const first = await client.request('session.create', { source: 'tui', cwd: outside });
    await client.request('prompt.submit', { session_id: first.session.id, text: 'write it' });
    await waitFor(() => existsSync(free), 'the unsandboxed TUI write');
    expect(await toolResultFor(free)).not.toContain('blocked by the sandbox');

    const set = await runHermes(root, ['config', 'set', 'terminal.sandbox', '{tui: workspace}']);
    expect(set.code, set.stderr).toBe(0);
    const work = mkdtempSync(join(outside, 'work-'));
    const file = scriptWrite('tui-sandboxed.txt');
    const second = await client.request('session.create', { source: 'tui', cwd: work });
    await client.request('prompt.submit', { session_id: second.session.id, text: 'write it' });
    expect(await toolResultFor(file)).toContain('blocked by the sandbox');
    expect(existsSync(file)).toBe(false);
  });
});
