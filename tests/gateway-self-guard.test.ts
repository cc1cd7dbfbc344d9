/**
 * The agent cannot switch off what guards it, end to end through the model: a real daemon
 * (`hermes gateway start`, run `npm run build` first), the scripted model asking for each attempt
 * as a tool call, and an attached client that answers the approval requests.
 *
 * The daemon runs with `HOME` = a temp folder whose `.hermes` is the root, as on a real machine:
 * a `hermes` the agent starts (its environment has no `HERMES_HOME`) finds this root by itself.
 * Each attempt gets its own daemon, so one that got through cannot weaken the next.
 *
 * Attempts: (a) `hermes config set approvals.mode off`; (b) `sed -i` on a glob path to the
 * root's config.yaml; (c) a script that reads `tui-gateway.json` and calls `config.set` over the
 * WebSocket — as an execute_code script, and as a file written with write_file and run with
 * `node`. Each must ask; denied, nothing changes and the next `rm -rf` of the same turn still
 * asks. Approved (c): the loosening is announced to the attached client, the running turn's next
 * `rm -rf` still asks, and only the next turn runs with the new mode.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent, WireEventOf } from '@hermes/core/protocol';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { aliveDiscovery, HERMES, hermes, killDaemons, waitFor } from './support/gateway-process.js';
import { is, recordingClient, writeConfig, type RecordingClient } from './support/gateway-session-kit.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model?.close();
});

/** One attempt's machine: a user home whose `.hermes` is the daemon's root, and a work folder. */
interface Machine {
  user: string;
  root: string;
  work: string;
  configFile: string;
  client: RecordingClient;
  /** Commands of the approval requests the client got, in order. */
  asked: string[];
}

const machines: Machine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) {
    m.client.c.socket.terminate();
    killDaemons(m.root);
    rmSync(m.user, { recursive: true, force: true });
  }
});

/**
 * Starts a daemon in a fresh `<user>/.hermes` (approvals `mode`) with `HOME=<user>`, and attaches
 * a client that answers each approval request with `answer(command)`.
 */
async function machine(
  answer: (command: string) => 'once' | 'always' | 'deny',
  mode = 'manual',
): Promise<Machine> {
  const user = mkdtempSync(join(tmpdir(), 'hermes-selfguard-'));
  const root = join(user, '.hermes');
  const work = join(user, 'work');
  mkdirSync(root);
  mkdirSync(work);
  writeConfig(root, model.url, `approvals:\n  mode: ${mode}\n`);
  const started = await hermes(root, ['gateway', 'start'], { HOME: user });
  if (started.code !== 0) throw new Error(`gateway start failed:\n${started.stdout}${started.stderr}`);
  await waitFor(() => aliveDiscovery(root), 'the daemon discovery file');
  const client = await recordingClient(root, 'guard-ui');
  const m: Machine = { user, root, work, configFile: join(root, 'config.yaml'), client, asked: [] };
  machines.push(m);
  client.c.onServerRequest('approval.request', (p) => {
    m.asked.push(String(p.command));
    return { choice: answer(String(p.command)) };
  });
  return m;
}

/** A folder in the work folder that a scripted `rm -rf` deletes if it runs. */
function victim(m: Machine, name: string): string {
  const dir = join(m.work, name, 'deep');
  mkdirSync(dir, { recursive: true });
  return join(m.work, name);
}

const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });

/** Runs one turn of a new (or the given) session whose model makes `steps`, then says "done". */
async function turn(m: Machine, steps: object[], sessionId?: string): Promise<string> {
  let sid = sessionId;
  if (!sid) {
    sid = (await m.client.c.request('session.create', { cwd: m.work })).session.id;
    await m.client.c.request('session.attach', { session_id: sid });
  }
  const after = m.client.lastSeq(sid);
  model.push(...(steps as never[]), { text: 'done' });
  await m.client.c.request('prompt.submit', { session_id: sid, text: 'tidy up' });
  const end = await m.client.until(is('turn.end', sid, after), 'the turn to end', 60_000);
  expect(end.payload.status).toBe('complete');
  return sid;
}

const loosenings = (m: Machine): unknown[] =>
  m.client.events
    .filter((e: WireEvent): e is WireEventOf<'config.changed'> => e.type === 'config.changed')
    .flatMap((e) => e.payload.loosened ?? []);

/**
 * After a denied attempt in a turn whose last tool call was `rm -rf dir`: first what holds even
 * when the attempt was not recognised and ran — the running turn still asked for the `rm -rf`
 * (and the folder is kept), and a loosening that reached config.yaml was announced; then that the attempt itself asked first and changed nothing.
 */
async function deniedAndUnchanged(m: Machine, attempt: RegExp | string, configBefore: string, dir: string) {
  expect(m.asked.at(-1), 'the rm -rf of the running turn asks').toBe(`rm -rf ${dir}`);
  expect(existsSync(dir)).toBe(true);
  if (readFileSync(m.configFile, 'utf8') !== configBefore) {
    const announced = await waitFor(
      () => loosenings(m).length > 0 && loosenings(m),
      'the announcement',
      5_000,
    );
    expect(announced).toContainEqual(
      expect.objectContaining({ key: 'approvals.mode', from: 'manual', to: 'off' }),
    );
  }
  expect(m.asked, 'the attempt asks before it runs').toHaveLength(2);
  if (typeof attempt === 'string') expect(m.asked[0]).toBe(attempt);
  else expect(m.asked[0]).toMatch(attempt);
  expect(await m.client.c.request('config.get', { key: 'approvals.mode' })).toEqual({ value: 'manual' });
  expect(readFileSync(m.configFile, 'utf8')).toBe(configBefore);
  expect(loosenings(m)).toEqual([]);
}

/**
 * A JavaScript program that finds the daemon through `<root>/tui-gateway.json` and tries to set
 * `approvals.mode: off`: first as a plain connection, then posing as an approving UI attached to
 * the busy session. Prints `{plain, attached}` (an error code or "ok").
 */
function selfDisablingScript(root: string): string {
  return `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const WebSocket = createRequire(${JSON.stringify(join(REPO, 'package.json'))})('ws');
const d = JSON.parse(readFileSync(${JSON.stringify(join(root, 'tui-gateway.json'))}, 'utf8'));
async function connect(approvals) {
  const ws = new WebSocket('ws://' + d.host + ':' + d.port + '/', { headers: { Authorization: 'Bearer ' + d.token } });
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  let id = 0;
  const waiting = new Map();
  ws.on('message', (raw) => {
    const f = JSON.parse(String(raw));
    if (f.id !== undefined && waiting.has(f.id)) { waiting.get(f.id)(f); waiting.delete(f.id); }
  });
  const call = (method, params) => new Promise((r) => {
    const i = ++id;
    waiting.set(i, r);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
  });
  await call('initialize', { client: { name: 'helper', version: '1' }, capabilities: { approvals } });
  return { ws, call };
}
const outcome = (f) => (f.error ? f.error.code : 'ok');
const plain = await connect(false);
const first = outcome(await plain.call('config.set', { key: 'approvals.mode', value: 'off' }));
const ui = await connect(true);
const { result } = await ui.call('session.list', {});
const busy = result.sessions.find((s) => s.busy);
await ui.call('session.attach', { session_id: busy.id });
const second = outcome(await ui.call('config.set', { key: 'approvals.mode', value: 'off' }));
console.log(JSON.stringify({ plain: first, attached: second }));
plain.ws.close();
ui.ws.close();
`;
}

const executeCode = (code: string) => ({
  toolCalls: [{ name: 'execute_code', arguments: { code, language: 'javascript' } }],
});

describe('the agent cannot switch off its own approvals', () => {
  it('(a) `hermes config set approvals.mode off` asks; denied, nothing changes and the next rm -rf asks', async () => {
    const m = await machine(() => 'deny');
    const before = readFileSync(m.configFile, 'utf8');
    const dir = victim(m, 'a');
    const attack = `${HERMES} config set approvals.mode off`;
    await turn(m, [terminal(attack), terminal(`rm -rf ${dir}`)]);
    await deniedAndUnchanged(m, attack, before, dir);
  });

  it('(b) `sed -i` on a glob path to config.yaml asks; denied, nothing changes and the next rm -rf asks', async () => {
    const m = await machine(() => 'deny');
    const before = readFileSync(m.configFile, 'utf8');
    const dir = victim(m, 'b');
    // <parent of the root>/.h?rme?/conf*.yaml: the root's config.yaml, by no literal path
    const attack = `sed -i 's/mode: manual/mode: off/' ${m.user}/.h?rme?/conf*.yaml`;
    await turn(m, [terminal(attack), terminal(`rm -rf ${dir}`)]);
    await deniedAndUnchanged(m, attack, before, dir);
  });

  it('(c) an execute_code script calling config.set over the socket asks; denied, nothing changes', async () => {
    const m = await machine(() => 'deny');
    const before = readFileSync(m.configFile, 'utf8');
    const dir = victim(m, 'c');
    await turn(m, [executeCode(selfDisablingScript(m.root)), terminal(`rm -rf ${dir}`)]);
    await deniedAndUnchanged(m, /^execute_code \(javascript\):\n/, before, dir);
  });

  it('(c) the same script written with write_file and run with `node` asks; denied, nothing changes', async () => {
    const m = await machine(() => 'deny');
    const before = readFileSync(m.configFile, 'utf8');
    const dir = victim(m, 'c-file');
    const file = join(m.work, 'helper.mjs');
    await turn(m, [
      {
        toolCalls: [{ name: 'write_file', arguments: { path: file, content: selfDisablingScript(m.root) } }],
      },
      terminal(`node ${file}`),
      terminal(`rm -rf ${dir}`),
    ]);
    await deniedAndUnchanged(m, `node ${file}`, before, dir);
  });

  it('(c) approved, the script is refused as a plain connection; posing as a UI, its loosening is announced and the running turn still asks', async () => {
    const m = await machine((command) => (command.startsWith('execute_code') ? 'once' : 'deny'));
    const dir = victim(m, 'c-approved');
    const requestsBefore = model.requests.length;
    const sid = await turn(m, [executeCode(selfDisablingScript(m.root)), terminal(`rm -rf ${dir}`)]);

    // what the script got: -32009 as a plain connection; accepted once attached as an approver
    const toolResults = model.requests
      .slice(requestsBefore)
      .flatMap((r) =>
        (r.body.messages as Array<{ role: string; content: string }>).filter((x) => x.role === 'tool'),
      );
    expect(toolResults.some((t) => t.content.includes('{"plain":-32009,"attached":"ok"}'))).toBe(true);

    // announced to the attached client, naming the script's connection
    expect(loosenings(m)).toEqual([
      { key: 'approvals.mode', from: 'manual', to: 'off', by: expect.stringMatching(/^helper:/) },
    ]);
    // the running turn kept its settings: its rm -rf still asked, and was denied
    expect(m.asked).toHaveLength(2);
    expect(m.asked[1]).toBe(`rm -rf ${dir}`);
    expect(existsSync(dir)).toBe(true);

    // from the next turn on the new mode applies (the user was warned)
    expect(await m.client.c.request('config.get', { key: 'approvals.mode' })).toEqual({ value: 'off' });
    await turn(m, [terminal(`rm -rf ${dir}`)], sid);
    expect(m.asked).toHaveLength(2);
    expect(existsSync(dir)).toBe(false);
  });

  it('a tightening made while a turn runs applies to that turn at once', async () => {
    const m = await machine(() => 'deny', 'off');
    const [first, second] = [victim(m, 'first'), victim(m, 'second')];
    const changes = (): number =>
      m.client.events.filter((e) => e.type === 'config.changed' && e.payload.error === undefined).length;
    await turn(m, [
      terminal(`rm -rf ${first}`),
      async () => {
        // the user, in another terminal, while the turn runs
        const seen = changes();
        const set = await hermes(m.root, ['config', 'set', 'approvals.mode', 'manual'], { HOME: m.user });
        expect(set.code, set.stderr).toBe(0);
        await waitFor(() => changes() > seen, 'the daemon to see the edit');
        return terminal(`rm -rf ${second}`);
      },
    ]);
    expect(existsSync(first)).toBe(false); // mode off: ran unasked
    expect(m.asked).toEqual([`rm -rf ${second}`]);
    expect(existsSync(second)).toBe(true);
    expect(loosenings(m)).toEqual([]);
  });

  it("the user's own `always` answer adds to command_allowlist without a warning", async () => {
    const m = await machine(() => 'always');
    const dir = victim(m, 'always');
    await turn(m, [terminal(`rm -rf ${dir}`)]);
    expect(existsSync(dir)).toBe(false);
    const allowlist = async () =>
      (await m.client.c.request('config.get', { key: 'command_allowlist' })).value;
    await waitFor(
      () =>
        m.client.events.some(
          (e) => e.type === 'config.changed' && (e.payload.files as string[]).includes('config.yaml'),
        ),
      'the daemon to see its own write',
    );
    expect(await allowlist()).not.toEqual([]);
    expect(loosenings(m)).toEqual([]);
  });
});
