/**
 * Another process holding one profile's state.db write lock for 8 s stalls nothing else in the
 * daemon: `ping` and another profile's turns keep their latency, and the locked profile's turn
 * runs and is stored once the lock is released (profile-writer.ts). Real `hermes gateway`
 * processes (run `npm run build` first); the model is a scripted server.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { SessionDB } from '@hermes/core/state';
import { connect, type DaemonClient } from '@hermes/client';
import { hermes, waitFor } from './support/gateway-process.js';
import { startGateway, useDaemonRoots } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-dblock-');
const LOCKER = join(dirname(fileURLToPath(import.meta.url)), 'support', 'sessiondb-locker.ts');
/** How long the outside process holds the lock, ms. */
const HOLD_MS = 8_000;

interface Client {
  c: DaemonClient;
  events: WireEvent[];
}

async function openClient(root: string, profile: string): Promise<Client> {
  const c = await connect(
    { root },
    { name: `dblock-${profile}`, profile, capabilities: { approvals: false } },
  );
  const events: WireEvent[] = [];
  c.onEvent((e) => events.push(e));
  return { c, events };
}

/** Runs one turn; resolves with its duration, ms (submit → turn.end). */
async function turn(cl: Client, sid: string, text: string): Promise<number> {
  const before = cl.events.length;
  const t0 = performance.now();
  await cl.c.request('prompt.submit', { session_id: sid, text });
  await waitFor(
    () => cl.events.slice(before).find((e) => e.type === 'turn.end' && e.session_id === sid),
    `turn.end of "${text}"`,
    20_000,
  );
  return performance.now() - t0;
}

async function pingMs(c: DaemonClient): Promise<number> {
  const t0 = performance.now();
  await c.request('ping', {});
  return performance.now() - t0;
}

describe('an outside write lock on one profile', () => {
  it(
    'leaves ping and another profile alone; the locked turn is stored after the release',
    { timeout: 40_000 },
    async () => {
      const r = fx.root();
      const made = await hermes(r, ['profile', 'create', 'other', '--clone']);
      expect(made.code, made.stderr).toBe(0);
      await startGateway(r);
      const a = await openClient(r, 'default');
      const b = await openClient(r, 'other');
      const sa = (await a.c.request('session.create', { title: 'locked' })).session.id;
      const sb = (await b.c.request('session.create', { title: 'free' })).session.id;
      await a.c.request('session.attach', { session_id: sa });
      await b.c.request('session.attach', { session_id: sb });
      await turn(a, sa, 'warm a');
      const baseTurn = await turn(b, sb, 'warm b');
      const basePing = Math.max(...(await Promise.all([1, 2, 3].map(() => pingMs(b.c)))));

      const locker = spawn(
        process.execPath,
        ['--import', 'tsx', LOCKER, join(r, 'state.db'), String(HOLD_MS)],
        {
          cwd: resolve(dirname(LOCKER), '..', '..'),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      locker.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      locker.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => out.includes('locked'), 'the outside lock', 10_000);
      const lockedAt = performance.now();

      fx.model.push({ text: 'reply while locked', chunkSize: 3, delayMs: 5 });
      const lockedTurn = turn(a, sa, 'during the lock');
      const pings: number[] = [];
      const turns: number[] = [];
      // sample until shortly before the lock ends
      while (performance.now() - lockedAt < HOLD_MS - 1_500) {
        pings.push(await pingMs(a.c), await pingMs(b.c));
        turns.push(await turn(b, sb, `free turn ${turns.length}`));
        await new Promise((res) => setTimeout(res, 100));
      }
      const stillLocked = !out.includes('released');
      await lockedTurn;
      await waitFor(() => out.includes('released'), 'the lock release', HOLD_MS + 5_000);

      const maxPing = Math.max(...pings);
      const maxTurn = Math.max(...turns);
      console.log(
        `db-lock: baseline ping ${basePing.toFixed(1)} ms, turn ${baseTurn.toFixed(1)} ms; under the lock ` +
          `${pings.length} pings max ${maxPing.toFixed(1)} ms, ${turns.length} other-profile turns max ${maxTurn.toFixed(1)} ms`,
      );
      expect(stillLocked).toBe(true); // the samples were all taken under the lock
      expect(turns.length).toBeGreaterThanOrEqual(3);
      expect(maxPing - basePing).toBeLessThan(1_000);
      expect(maxTurn - baseTurn).toBeLessThan(1_000);

      // the locked profile's turn lands in its state.db after the release, nothing lost
      const db = SessionDB.open(join(r, 'state.db'), { readonly: true });
      try {
        const rows = await waitFor(
          () => {
            const m = db.getMessages(sa).filter((x) => x.role !== 'system');
            return m.length >= 4 ? m : undefined;
          },
          'the locked turn stored',
          10_000,
        );
        expect(rows.map((m) => [m.role, m.content, m.status])).toEqual([
          ['user', 'warm a', null],
          ['assistant', 'OK', 'complete'],
          ['user', 'during the lock', null],
          ['assistant', 'reply while locked', 'complete'],
        ]);
      } finally {
        db.close();
      }
      await a.c.close();
      await b.c.close();
    },
  );
});
