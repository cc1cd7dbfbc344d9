/**
 * The delivery ledger with an injected clock: the retry schedule (capped exponential backoff
 * with jitter), permanent failures, per-chat order, and the restart resend from state.db.
 */
import { describe, expect, it } from 'vitest';
import { useStateDbFile } from '../state/testing.js';
import type { SendOptions, SendResult } from './adapter.js';
import {
  DEFAULT_RETRY,
  DeliveryLedger,
  MemoryDeliveryStore,
  retryDelay,
  type DeliveryStore,
  type LedgerClock,
} from './delivery-ledger.js';

/** A clock whose timers run when the test advances it. */
class ManualClock implements LedgerClock {
  t = 1_000_000;
  private timers: Array<{ at: number; fn: () => void }> = [];
  now = (): number => this.t;
  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  }
  /** Moves time forward, running due timers in order (and the sends they start). */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = next.at;
      next.fn();
      await settle();
    }
    this.t = target;
    await settle();
  }
  /** Time of the earliest pending timer. */
  get nextAt(): number | undefined {
    return [...this.timers].sort((a, b) => a.at - b.at)[0]?.at;
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

interface Call {
  chatId: string;
  text: string;
  opts?: SendOptions;
  at: number;
}

/** A sender whose answers a test scripts per call (default: ok). */
function scriptedSender(clock: ManualClock, answers: Array<SendResult | 'hang'> = []) {
  const calls: Call[] = [];
  return {
    calls,
    answers,
    send: (chatId: string, text: string, opts?: SendOptions): Promise<SendResult> => {
      calls.push({ chatId, text, ...(opts ? { opts } : {}), at: clock.now() });
      const a = answers.shift() ?? { ok: true };
      return a === 'hang' ? new Promise<SendResult>(() => undefined) : Promise.resolve(a);
    },
  };
}

function ledger(
  store: DeliveryStore,
  clock: ManualClock,
  sender: ReturnType<typeof scriptedSender>,
  max = 0,
) {
  const logs: string[] = [];
  const l = new DeliveryLedger({
    platform: 'test',
    store,
    sender,
    maxLength: () => max,
    log: (line) => logs.push(line),
    clock,
    random: () => 0, // no jitter: the full delay
  });
  return { l, logs };
}

function accept(l: DeliveryLedger, id: string, chatId = 'alice'): void {
  expect(l.accept({ id, chatId, send: { replyTo: `m-${id}` }, key: `k:${chatId}` })).toBe('ok');
}

const stateDb = useStateDbFile('hermes-ledger-');

describe('retryDelay', () => {
  it('doubles from the base, is capped, and jitter takes off at most its fraction', () => {
    const p = { baseMs: 1_000, maxMs: 10_000, maxAttempts: 10, jitter: 0.5 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, p, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
    expect(retryDelay(3, p, () => 1)).toBe(2_000);
    for (let i = 0; i < 50; i++) {
      const d = retryDelay(4, p);
      expect(d).toBeGreaterThanOrEqual(4_000);
      expect(d).toBeLessThanOrEqual(8_000);
    }
  });
});

describe('DeliveryLedger', () => {
  it('retries a failing send on the backoff schedule, with a stable delivery id, until it is confirmed', async () => {
    const clock = new ManualClock();
    const fail: SendResult = { ok: false, error: 'server down' };
    const sender = scriptedSender(clock, [fail, fail, fail, fail]);
    const { l, logs } = ledger(new MemoryDeliveryStore(), clock, sender);
    l.start();
    accept(l, 'in-1');
    const t0 = clock.now();
    await l.deliver('in-1', 'hello', 'reply'); // settles after the first attempt
    expect(l.get('in-1')).toMatchObject({ state: 'pending', attempts: 1, last_error: 'server down' });
    expect(clock.nextAt).toBe(t0 + 1_000);
    await clock.advance(60_000);
    expect(sender.calls.map((c) => c.at - t0)).toEqual([0, 1_000, 3_000, 7_000, 15_000]);
    expect(new Set(sender.calls.map((c) => c.opts?.deliveryId))).toEqual(new Set(['in-1#0']));
    expect(sender.calls[0]!.opts).toMatchObject({ replyTo: 'm-in-1', kind: 'reply' });
    expect(l.get('in-1')).toMatchObject({ state: 'sent', attempts: 4, chunks_sent: 1 });
    expect(logs.filter((x) => x.startsWith('message outcome:'))).toEqual([
      'message outcome: platform=test chat=alice msg=in-1 outcome=reply',
    ]);
  });

  it('gives up after maxAttempts, or at once on a permanent refusal, logging the outcome', async () => {
    const clock = new ManualClock();
    const fail: SendResult = { ok: false, error: 'flaky' };
    const sender = scriptedSender(clock, [
      ...Array<SendResult>(DEFAULT_RETRY.maxAttempts).fill(fail),
      { ok: false, error: 'chat not found', retryable: false },
    ]);
    const { l, logs } = ledger(new MemoryDeliveryStore(), clock, sender);
    l.start();
    accept(l, 'in-1', 'a');
    accept(l, 'in-2', 'b');
    await l.deliver('in-1', 'x', 'reply');
    await clock.advance(24 * 3600_000);
    expect(l.get('in-1')).toMatchObject({ state: 'failed', attempts: DEFAULT_RETRY.maxAttempts });
    expect(sender.calls).toHaveLength(DEFAULT_RETRY.maxAttempts);
    // the gaps follow the schedule up to its cap
    const gaps = sender.calls.slice(1).map((c, i) => c.at - sender.calls[i]!.at);
    expect(gaps).toEqual(gaps.map((_, i) => Math.min(DEFAULT_RETRY.maxMs, DEFAULT_RETRY.baseMs * 2 ** i)));
    await l.deliver('in-2', 'y', 'error');
    expect(l.get('in-2')).toMatchObject({ state: 'failed', attempts: 1 });
    const outcomes = logs.filter((x) => x.startsWith('message outcome:'));
    expect(outcomes).toHaveLength(2);
    expect(outcomes[0]).toMatch(/msg=in-1 outcome=undeliverable reason="the reply was not taken after 12/);
    expect(outcomes[1]).toMatch(/msg=in-2 outcome=undeliverable reason="the error notice .*chat not found"/);
  });

  it('keeps the order of one chat while its first reply waits for a retry; other chats go on', async () => {
    const clock = new ManualClock();
    const sender = scriptedSender(clock, [{ ok: false, error: 'busy' }]);
    const { l } = ledger(new MemoryDeliveryStore(), clock, sender);
    l.start();
    for (const [id, chat] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
    ] as const)
      accept(l, id, chat);
    const a1 = l.deliver('a1', 'first to a', 'reply');
    const a2 = l.deliver('a2', 'second to a', 'reply');
    await l.deliver('b1', 'to b', 'reply');
    await a1;
    expect(sender.calls.map((c) => c.text)).toEqual(['first to a', 'to b']);
    await clock.advance(1_000);
    await a2;
    expect(sender.calls.map((c) => c.text)).toEqual(['first to a', 'to b', 'first to a', 'second to a']);
    expect(l.backlog).toBe(0);
  });

  it('after a restart sends the unconfirmed chunks from state.db, each exactly once', async () => {
    const db1 = stateDb.open();
    const clock = new ManualClock();
    // the first daemon: chunk 0 is confirmed, then the platform hangs and the daemon "dies"
    const before = scriptedSender(clock, [{ ok: true }, 'hang']);
    const first = ledger(db1.platforms, clock, before, 10).l;
    first.start();
    accept(first, 'in-1');
    accept(first, 'in-2');
    void first.deliver('in-1', 'aaaaaaaaa bbbbbbbbb ccccccccc', 'reply');
    await settle();
    expect(before.calls.map((c) => c.text)).toEqual(['aaaaaaaaa', 'bbbbbbbbb']);
    void first.deliver('in-2', 'later', 'reply'); // waits behind in-1
    await settle();
    expect(db1.platforms.getDelivery('in-1')).toMatchObject({ state: 'pending', chunks_sent: 1 });
    db1.close();

    // the second daemon: the same file, a working platform
    const db2 = stateDb.open();
    const after = scriptedSender(clock);
    const { l: second, logs } = ledger(db2.platforms, clock, after, 10);
    second.start();
    await clock.advance(10);
    expect(after.calls.map((c) => [c.text, c.opts?.deliveryId])).toEqual([
      ['bbbbbbbbb', 'in-1#1'],
      ['ccccccccc', 'in-1#2'],
      ['later', 'in-2#0'],
    ]);
    expect(db2.platforms.getDelivery('in-1')).toMatchObject({ state: 'sent', chunks_sent: 3 });
    expect(db2.platforms.getDelivery('in-2')).toMatchObject({ state: 'sent', chunks_sent: 1 });
    expect(logs.filter((x) => x.startsWith('message outcome:'))).toHaveLength(2);
    // a third start finds nothing to send
    const again = scriptedSender(clock);
    ledger(db2.platforms, clock, again, 10).l.start();
    await clock.advance(10);
    expect(again.calls).toEqual([]);
  });

  it('refuses a platform id it has seen; closes rows that send nothing, logging their outcome', () => {
    const clock = new ManualClock();
    const { l, logs } = ledger(new MemoryDeliveryStore(), clock, scriptedSender(clock));
    expect(l.accept({ id: 'in-1', chatId: 'c', send: {}, key: 'k', externalId: 'tg:1' })).toBe('ok');
    expect(l.accept({ id: 'in-2', chatId: 'c', send: {}, key: 'k', externalId: 'tg:1' })).toBe('duplicate');
    l.close('in-1', 'silence');
    l.note('c', 'in-2', 'dropped', 'duplicate');
    expect(l.get('in-1')).toMatchObject({ state: 'closed', outcome: 'silence' });
    expect(logs).toEqual([
      'message outcome: platform=test chat=c msg=in-1 ext=tg:1 outcome=silence',
      'message outcome: platform=test chat=c msg=in-2 outcome=dropped reason="duplicate"',
    ]);
  });
});
