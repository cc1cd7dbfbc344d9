/**
 * The messaging pipeline under load: inbound message → pipeline (authorize, session, delivery
 * ledger in state.db) → the daemon's live session → the scripted model → the reply sent back
 * through the ledger, at C concurrent senders.
 *
 * Method:
 * - In this process: the daemon's platform side as it runs (`AdapterHost` + `SessionRegistry`,
 *   real SessionDB, real agents) with a fake platform (`BenchAdapter`, a `MemoryAdapter` that
 *   timestamps each send) and the scripted model server (tests/support/fake-model-server.ts)
 *   echoing each prompt at once.
 * - C senders (each its own chat and session) send their messages one after the other, the next
 *   as soon as the reply to the previous arrived; the C senders run concurrently.
 * - Throughput: messages answered per second of wall time for the run.
 * - Overhead: per message, (reply sent − message received) − the model server's own time for
 *   that message's request (arrival → last byte written); its p99 over the run.
 * - One warm-up run per sender count, then `RUNS` measured runs, each in a fresh home.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformRegistry, type SendOptions, type SendResult } from '@hermes/core/messaging';
import { MemoryAdapter } from '@hermes/core/testing';
import { AdapterHost } from '@hermes/tui-gateway/platforms/adapter-host';
import { SessionRegistry } from '@hermes/tui-gateway/sessions/session-registry';
import { startFakeModelServer, type FakeModelServer } from '../../tests/support/fake-model-server.js';
import { percentile } from '../lib/stats.js';

/** Measured runs per sender count (after one warm-up run). */
const RUNS = 5;
/** Messages answered per run (spread over the senders). */
const MESSAGES_PER_RUN = 200;

/** One run's figures. */
export interface PipelineRun {
  /** Messages answered per second. */
  throughput: number;
  /** p99 of the per-message time beyond the model's own, ms. */
  overheadP99Ms: number;
}

/** A fake platform that records when each reply left. */
class BenchAdapter extends MemoryAdapter {
  readonly sentAt = new Map<string, number>();
  private readonly waiting = new Map<string, () => void>();

  override async send(chatId: string, text: string, _opts?: SendOptions): Promise<SendResult> {
    const id = text.replace(/^echo: /, '');
    this.sentAt.set(id, performance.now());
    this.waiting.get(id)?.();
    this.waiting.delete(id);
    return { ok: true, messageId: `${chatId}:${id}` };
  }

  /** Resolves once the reply to message `id` was sent. */
  replied(id: string): Promise<void> {
    if (this.sentAt.has(id)) return Promise.resolve();
    return new Promise((r) => this.waiting.set(id, r));
  }
}

async function oneRun(model: FakeModelServer, senders: number): Promise<PipelineRun> {
  const root = mkdtempSync(join(tmpdir(), 'hermes-bench-pipe-'));
  writeFileSync(
    join(root, 'config.yaml'),
    [
      'model:',
      '  provider: custom',
      `  base_url: ${model.url}`,
      '  default: fake-model',
      'platforms:',
      '  bench: { enabled: true, allow_all_users: true, footer: false, reset: { mode: none } }',
      '',
    ].join('\n'),
  );
  const adapter = new BenchAdapter('bench');
  const registry = new PlatformRegistry();
  registry.register({ name: 'bench', label: 'Bench', createAdapter: () => adapter });
  const sessions = new SessionRegistry({ root, epoch: 'bench' });
  const quiet = { info: () => {}, warn: () => {}, error: () => {}, addSecret: () => {} };
  const host = new AdapterHost({ root, sessions, log: quiet, registry });
  await host.start();
  const perSender = Math.max(1, Math.round(MESSAGES_PER_RUN / senders));
  const receivedAt = new Map<string, number>();
  const requestsBefore = model.requests.length;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async (_, s) => {
      const user = `user${s}`;
      for (let i = 0; i < perSender; i++) {
        const id = `${user}-m${i}`;
        receivedAt.set(id, performance.now());
        const replied = adapter.replied(id);
        void adapter.receive({
          source: { platform: 'bench', chatType: 'dm', chatId: user, userId: user },
          text: id,
        });
        await replied;
      }
    }),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  // the model's own time per message (its request's arrival → last byte), wall-clock ms
  const modelMs = new Map<string, number>();
  for (const r of model.requests.slice(requestsBefore)) {
    const users = (r.body?.messages as Array<{ role: string; content: string }> | undefined)?.filter(
      (m) => m.role === 'user',
    );
    const id = users?.at(-1)?.content;
    if (id && r.finishedAt) modelMs.set(id, r.finishedAt - r.at);
  }
  const overheads = [...receivedAt].map(([id, at]) => adapter.sentAt.get(id)! - at - (modelMs.get(id) ?? 0));
  await host.beginShutdown();
  await sessions.drain(1_000);
  await host.stop();
  rmSync(root, { recursive: true, force: true });
  return { throughput: receivedAt.size / elapsedS, overheadP99Ms: percentile(overheads, 99) };
}

/** Runs the measurement for `senders` concurrent senders. @returns the measured runs. */
export async function measurePipeline(senders: number): Promise<PipelineRun[]> {
  const model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  try {
    await oneRun(model, senders); // warm-up
    const runs: PipelineRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(model, senders));
    return runs;
  } finally {
    await model.close();
  }
}
