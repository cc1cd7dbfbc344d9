/**
 * Background processes end to end: the agent starts an HTTP server with
 * `terminal(background: true)` through a `hermes chat -q` client; the server keeps answering after
 * that client is killed, is listed by `hermes ps`, `process.list` and `/ps`, its output is read
 * with the `process` tool, and `hermes gateway stop` ends it (the port stops answering, the pid
 * is gone). Uses `python3 -m http.server` when python3 is installed, else a Node HTTP server.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, pidRuns, waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes, spawnHermes } from './support/hermes-cli.js';

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** GET http://127.0.0.1:port/path → status, or null when nothing answers. */
function get(port: number, path = '/'): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => {
      req.destroy();
      resolve(null);
    });
    req.end();
  });
}

let model: FakeModelServer;
let root: string;
let port: number;
beforeAll(async () => {
  model = await startFakeModelServer();
  // the guard asks before an interpreter runs (python3 -m, node -e): nobody answers here
  root = makeTestHome({ modelUrl: model.url, config: 'approvals:\n  mode: "off"' });
  port = await freePort();
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
});
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

const server = hasPython
  ? (p: number) => `python3 -m http.server ${p} --bind 127.0.0.1`
  : (p: number) =>
      `node -e "require('http').createServer((q,s)=>{console.error('GET '+q.url);s.end('ok')}).listen(${p},'127.0.0.1')"`;

describe(`a background server started by the agent (${hasPython ? 'python3 -m http.server' : 'python3 missing: a Node HTTP server'})`, () => {
  it('outlives its client, is listed, its output is readable, and gateway stop ends it', async () => {
    // 1. a client asks; the model starts the server in the background; the client is killed
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: server(port), background: true } }] },
      { text: 'server started' },
    );
    const chat = spawnHermes(root, ['chat', '-q', 'serve this folder'], { input: '' });
    await waitFor(async () => (await get(port)) === 200, 'the server to answer', 20_000).catch(
      (err: Error) => {
        throw new Error(`${err.message}\nchat stdout:\n${chat.stdout()}\nchat stderr:\n${chat.stderr()}`);
      },
    );
    chat.child.kill('SIGKILL');
    await chat.exited;
    expect(await get(port, '/after-client-killed')).not.toBeNull(); // answered (python3: 404, no such file)

    // 2. process.list (and the same client sees the count in process.changed)
    const client = await connect({ root }, { name: 'bg-test', capabilities: { approvals: false } });
    let id: string;
    let pid: number;
    try {
      const listed = await client.request('process.list', {});
      expect(listed.running).toBe(1);
      const p = listed.processes[0]!;
      expect(p).toMatchObject({ state: 'running', command: server(port), adopted: false });
      id = p.id;
      pid = p.pid;
      expect(pidRuns(pid)).toBe(true);

      // 3. /ps in a session of the profile
      const { sessions } = await client.request('session.list', { limit: 1 });
      const ps = await client.request('slash.exec', { session_id: sessions[0]!.id, command: '/ps' });
      expect(ps.output).toContain(`1 running background process(es) in profile default`);
      expect(ps.output).toContain(`${id}  pid ${pid}  running`);

      // 4. the agent reads its output with the process tool (the request log of the server)
      const before = model.requests.length;
      model.push(
        { toolCalls: [{ name: 'process', arguments: { action: 'poll', id, offset: 0 } }] },
        { text: 'read it' },
      );
      const poll = await runHermes(root, ['chat', '-q', 'what did the server log?', '--continue']);
      expect(poll.code, poll.stderr).toBe(0);
      const reqs = await model.waitForRequests(before + 2);
      const toolMsg = (reqs[before + 1]!.body.messages as Array<{ role: string; content: string }>).findLast(
        (m) => m.role === 'tool',
      )!;
      expect(toolMsg.content).toContain(`${id} (pid ${pid}): running`);
      expect(toolMsg.content).toContain('/after-client-killed');
      expect(toolMsg.content).toMatch(/--- next_offset: \d+/);
    } finally {
      await client.close();
    }

    // 5. hermes ps
    const listed = await runHermes(root, ['ps']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${id}  pid ${pid}  running`);

    // 6. gateway stop ends it: the port stops answering and the pid is gone
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(await get(port)).toBeNull();
    expect(pidRuns(pid)).toBe(false);
    expect(readFileSync(`${root}/logs/tui-gateway.log`, 'utf8')).toContain(
      `the daemon stops: stopping background process ${id}`,
    );
    // without a daemon, hermes ps reads the record
    const after = await runHermes(root, ['ps']);
    expect(after.stdout).toContain('The daemon is not running');
    expect(after.stdout).toContain(`${id}  pid ${pid}  killed`);
  }, 90_000);
});

describe('background processes across a daemon crash, and notify_on_complete', () => {
  it('a daemon started after kill -9 adopts the survivor: hermes ps lists it, --kill stops it', async () => {
    const started = await runHermes(root, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);
    model.push(
      {
        toolCalls: [{ name: 'terminal', arguments: { command: 'echo alive; sleep 120', background: true } }],
      },
      { text: 'sleeping' },
    );
    const run = await runHermes(root, ['chat', '-q', 'sleep in the background']);
    expect(run.code, run.stderr).toBe(0);
    const before = await runHermes(root, ['ps', '--json']);
    const { processes } = JSON.parse(before.stdout) as {
      processes: Array<{ id: string; pid: number; state: string }>;
    };
    const p = processes.find((x) => x.state === 'running')!;
    expect(p).toBeDefined();

    killDaemons(root); // kill -9: no drain, nothing stops the process
    expect(pidRuns(p.pid)).toBe(true);
    const down = await runHermes(root, ['ps']);
    expect(down.stdout).toContain('The daemon is not running');
    expect(down.stdout).toContain(`${p.id}  pid ${p.pid}  running`);

    const again = await runHermes(root, ['gateway', 'start']);
    expect(again.code, again.stderr).toBe(0);
    const up = await runHermes(root, ['ps']);
    expect(up.stdout).toContain(`${p.id}  pid ${p.pid}  running (adopted, no stdin)`);
    expect(readFileSync(`${root}/logs/tui-gateway.log`, 'utf8')).toMatch(
      new RegExp(
        `background process ${p.id} \\(pid ${p.pid}, profile default\\) survived the previous daemon and is adopted`,
      ),
    );
    const killed = await runHermes(root, ['ps', '--kill', p.id]);
    expect(killed.code, killed.stderr).toBe(0);
    expect(killed.stdout).toContain(`${p.id}: killed`);
    expect(pidRuns(p.pid)).toBe(false);
  }, 60_000);

  it('tells the session when a process started with notify_on_complete ends: a turn runs with the notice', async () => {
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          {
            name: 'terminal',
            arguments: {
              command: 'sleep 0.5; echo build-finished; exit 3',
              background: true,
              notify_on_complete: true,
            },
          },
        ],
      },
      { text: 'started the build' },
      { text: 'the build failed with exit 3' },
    );
    const run = await runHermes(root, ['chat', '-q', 'build it in the background']);
    expect(run.code, run.stderr).toBe(0);
    const reqs = await model.waitForRequests(before + 3, 15_000);
    const last = reqs[before + 2]!.body.messages as Array<{ role: string; content: string }>;
    const notice = last.findLast((m) => m.role === 'user')!.content;
    expect(notice).toMatch(
      /^\[Background process bg-[0-9a-f]{8} \(sleep 0\.5; echo build-finished; exit 3\) exited 3 after/,
    );
    expect(notice).toContain('build-finished');
  }, 60_000);
});
