import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import { processStartTime } from '@hermes/core/tools';
import type { WireEvent } from '@hermes/core/protocol';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import {
  NOTICE_LIMIT,
  startProcessService,
  type ProcessService,
  type ProcessSessions,
} from './process-service.js';

let root: string;
let events: WireEvent[];
let lines: string[];
let handlers: Record<string, (p: unknown, conn: Connection) => Promise<unknown>>;
let submitted: Array<{ profile: string; id: string; text: string; by: string }>;
let keep: Set<string>;
let service: ProcessService;

const rpc: HandlerRegistry = {
  register: (m, h) => {
    handlers[m] = h as unknown as (p: unknown, conn: Connection) => Promise<unknown>;
  },
};
const conn = (profile = 'default') => ({ profile }) as unknown as Connection;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function start(): ProcessService {
  const sessions: ProcessSessions = {
    submit: (profile, id, text, by) => submitted.push({ profile, id, text, by }),
    keepOnStop: (p) => keep.has(p),
  };
  return startProcessService(
    rpc,
    { root, log: { info: (l: string) => lines.push(l) } as never, broadcast: (e) => events.push(e) },
    () => sessions,
    { graceMs: 500 },
  );
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-psvc-'));
  events = [];
  lines = [];
  handlers = {};
  submitted = [];
  keep = new Set();
  service = start();
});
afterEach(async () => {
  await service.manager.stopAll();
  service.manager.close();
  rmSync(root, { recursive: true, force: true });
});

const launch = (command: string, profile = 'default', notify = false) =>
  service.manager.start({
    home: new HermesHome(root, profile),
    session: 's1',
    command,
    cwd: root,
    env,
    notify,
  });

describe('process service', () => {
  it('lists and kills in the connection’s profile only, and broadcasts process.changed', async () => {
    const mine = launch('sleep 30');
    const theirs = launch('sleep 30', 'work');
    const list = (await handlers['process.list']!({}, conn())) as {
      processes: Array<{ id: string }>;
      running: number;
    };
    expect(list.processes.map((p) => p.id)).toEqual([mine.id]);
    expect(list.running).toBe(1);
    await expect(handlers['process.kill']!({ id: theirs.id }, conn())).rejects.toMatchObject({
      code: -32602,
    });
    const killed = (await handlers['process.kill']!({ id: mine.id }, conn())) as {
      process: { state: string };
    };
    expect(killed.process.state).toBe('killed');
    const changes = events
      .filter((e) => e.type === 'process.changed')
      .map((e) => e.payload as { reason: string; running: number; profile: string });
    expect(changes).toContainEqual(
      expect.objectContaining({ profile: 'default', reason: 'started', running: 1 }),
    );
    expect(changes).toContainEqual(
      expect.objectContaining({ profile: 'default', reason: 'ended', running: 0 }),
    );
    expect(events.every((e) => e.session_id === '*' && e.seq === 0)).toBe(true);
  });

  it('tells the session when a notify_on_complete process ends', async () => {
    const e = launch('echo built; exit 2', 'default', true);
    await until(() => submitted.length === 1);
    expect(submitted[0]).toMatchObject({ profile: 'default', id: 's1', by: `process:${e.id}` });
    expect(submitted[0]!.text).toContain(`Background process ${e.id} (echo built; exit 2) exited 2`);
    expect(submitted[0]!.text).toContain('built');
    launch('true'); // without notify: nobody is told
    await until(() => service.manager.running().length === 0);
    expect(submitted).toHaveLength(1);
  });

  it('runs at most NOTICE_LIMIT notices of one session as turns in the window; the rest are logged', async () => {
    for (let i = 0; i < NOTICE_LIMIT + 2; i++) launch('true', 'default', true);
    await until(() => lines.filter((l) => l.includes('not told')).length === 2);
    expect(submitted).toHaveLength(NOTICE_LIMIT);
    expect(lines.filter((l) => l.includes('not told'))[0]).toMatch(
      new RegExp(`session s1 not told: ${NOTICE_LIMIT} notices within 10 min`),
    );
  });

  it('on stop: announces, then stops — except profiles with keep_on_stop; the next start adopts those', async () => {
    keep.add('work');
    const a = launch('sleep 30');
    const b = launch('sleep 30', 'work', true);
    await service.stop();
    expect(
      events.some(
        (e) => e.type === 'process.changed' && (e.payload as { reason: string }).reason === 'stopping',
      ),
    ).toBe(true);
    expect(lines.join('\n')).toContain(`the daemon stops: stopping background process ${a.id}`);
    expect(lines.join('\n')).toContain(
      `background process ${b.id} (pid ${b.pid}, profile work) left running`,
    );
    expect(processStartTime(a.pid)).toBeNull();
    expect(processStartTime(b.pid)).not.toBeNull();
    expect(submitted).toEqual([]); // a stop is not a completion to report
    service = start();
    expect(lines.join('\n')).toMatch(new RegExp(`${b.id} .*adopted`));
    const list = (await handlers['process.list']!({ profile: 'work' }, conn())) as {
      processes: Array<{ id: string; state: string; adopted: boolean }>;
    };
    expect(list.processes).toEqual([expect.objectContaining({ id: b.id, state: 'running', adopted: true })]);
  });
});
