/**
 * Background processes against a hostile model and a damaged record, end to end: a daemon whose
 * record file is truncated starts, names the file in its log and keeps the damaged copy; a
 * process of one profile cannot be killed from another (`hermes -p work ps --kill`), nor through
 * the `process` tool of that profile's session.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, pidRuns } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let root: string;
beforeAll(async () => {
  model = await startFakeModelServer();
  root = makeTestHome({ modelUrl: model.url, config: 'approvals:\n  mode: "off"' });
});
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

describe('background processes: a damaged record and another profile', () => {
  it('a truncated record: the daemon starts, its log names the file, the damaged copy is kept', async () => {
    const file = join(root, 'run', 'background-processes.json');
    mkdirSync(join(root, 'run'), { recursive: true });
    writeFileSync(file, '[{"id": "bg-0123abcd", "pid": 12');
    const started = await runHermes(root, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);
    expect(readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8')).toContain(`cannot read ${file}`);
    const kept = readdirSync(join(root, 'run')).filter((f) =>
      f.startsWith('background-processes.json.damaged-'),
    );
    expect(kept).toHaveLength(1);
    const ps = await runHermes(root, ['ps']);
    expect(ps.code, ps.stderr).toBe(0);
    expect(ps.stdout).toContain('0 running');
  }, 60_000);

  it('another profile cannot kill the process, by hermes ps or by its model', async () => {
    expect(existsSync(join(root, 'logs', 'tui-gateway.log'))).toBe(true);
    const created = await runHermes(root, ['profile', 'create', 'work', '--clone']);
    expect(created.code, created.stderr).toBe(0);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 120', background: true } }] },
      { text: 'sleeping' },
    );
    const run = await runHermes(root, ['chat', '-q', 'sleep in the background']);
    expect(run.code, run.stderr).toBe(0);
    const { processes } = JSON.parse((await runHermes(root, ['ps', '--json'])).stdout) as {
      processes: Array<{ id: string; pid: number; state: string }>;
    };
    const p = processes.find((x) => x.state === 'running')!;
    expect(p).toBeDefined();

    const other = await runHermes(root, ['-p', 'work', 'ps', '--kill', p.id]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`no background process "${p.id}" in this profile`);
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'process', arguments: { action: 'kill', id: p.id } }] },
      { text: 'done' },
    );
    const hostile = await runHermes(root, ['-p', 'work', 'chat', '-q', 'kill it']);
    expect(hostile.code, hostile.stderr).toBe(0);
    const reqs = await model.waitForRequests(before + 2, 15_000);
    const msgs = reqs[before + 1]!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.findLast((m) => m.role === 'tool')!.content).toContain('no background process');
    expect(pidRuns(p.pid)).toBe(true);
    const listed = await runHermes(root, ['-p', 'work', 'ps']);
    expect(listed.stdout).not.toContain(p.id);
  }, 60_000);
});
