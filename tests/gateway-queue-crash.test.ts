/**
 * A prompt the daemon accepted (`started` or `queued`) survives `kill -9` at any moment: 30 kills
 * at staggered times around queued prompts' handoff to their turns, and afterwards every accepted
 * prompt is a stored user message or a held queue entry. Real `hermes gateway` processes (run
 * `npm run build` first); the model is a scripted server.
 */
import { describe, expect, it } from 'vitest';
import type { QueuedPrompt } from '@hermes/core/protocol';
import { pidRuns, waitFor } from './support/gateway-process.js';
import { showSession, startGateway, useDaemonRoots } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-qcrash-');

/** Kills in the loop (each one a daemon start + kill -9). */
const KILLS = 30;

describe('kill -9 while prompts are queued', () => {
  it(`${KILLS} kills: every accepted prompt is stored or held afterwards`, { timeout: 90_000 }, async () => {
    const r = fx.root();
    let sid = '';
    const accepted: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < KILLS; i++) {
      const d = await startGateway(r);
      const a = await fx.client(r, `qcrash-${i}`);
      if (!sid) sid = (await a.c.request('session.create', { title: 'queue-crash' })).session.id;
      await a.c.request('session.attach', { session_id: sid });
      // short replies so queued prompts hand off to their turns while the kill is on its way
      fx.model.push(
        { text: `reply ${i}a`, chunkSize: 2, delayMs: 2 },
        { text: `reply ${i}b`, chunkSize: 2, delayMs: 2 },
        { text: `reply ${i}c`, chunkSize: 2, delayMs: 2 },
      );
      for (const tag of ['a', 'b', 'c']) {
        const res = await a.c.request('prompt.submit', { session_id: sid, text: `p${i}${tag}` });
        expect(['started', 'queued']).toContain(res.status);
        accepted.push(`p${i}${tag}`);
      }
      // 0–27 ms after the last answer: the turns end and hand off to the next queued prompt then
      await new Promise((res) => setTimeout(res, (i % 10) * 3));
      process.kill(d.pid, 'SIGKILL');
      await waitFor(() => !pidRuns(d.pid), 'the killed daemon to be gone');
      a.c.socket.terminate();
    }
    const loopMs = performance.now() - t0;

    await startGateway(r);
    const b = await fx.client(r, 'qcrash-final');
    const snap = await b.c.request('session.attach', { session_id: sid });
    if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
    const held = (snap.queued as QueuedPrompt[]).map((q) => q.text);
    const stored = (await showSession(r, sid)).messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    const missing = accepted.filter((p) => !stored.includes(p) && !held.includes(p));
    console.log(
      `queue-crash: ${KILLS} kills in ${Math.round(loopMs)} ms; ${accepted.length} prompts accepted, ` +
        `${stored.length} stored as user messages, ${held.length} held`,
    );
    expect(accepted).toHaveLength(3 * KILLS);
    expect(missing).toEqual([]);
    // none is both stored and held (the row goes in the transaction that stores the message)
    expect(held.filter((p) => stored.includes(p))).toEqual([]);
  });
});
