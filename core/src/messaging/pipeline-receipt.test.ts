/**
 * The pipeline's receipt of an inbound message: given once, before the turn runs, and `accepted`
 * only when the message's row is in the delivery ledger (so an adapter that answers its sender
 * after the receipt — the webhook's 202 — never confirms a message a crash could lose).
 */
import { describe, expect, it } from 'vitest';
import type { InboundMessage, InboundReceipt } from './adapter.js';
import { DeliveryLedger, type DeliveryStore } from './delivery-ledger.js';
import { usePipelineTests } from './pipeline-testing.js';

const pipes = usePipelineTests();

/** A pipeline with a stored ledger in `db.platforms`, optionally failing its inserts. */
function setup(opts: { allowed?: string[]; failInsert?: boolean } = {}) {
  const { pipeline, db } = pipes.create({
    prefix: 'hermes-receipt-',
    platform: { allowed_users: opts.allowed ?? ['alice'] },
    entry: { piiSafe: true },
    ledger: ({ db, adapter }) => {
      const store: DeliveryStore = opts.failInsert
        ? Object.assign(Object.create(db.platforms) as DeliveryStore, {
            insertDelivery: () => {
              throw new Error('database is locked');
            },
          })
        : db.platforms;
      const ledger = new DeliveryLedger({
        platform: 'memory',
        store,
        sender: adapter,
        maxLength: () => 0,
        log: () => undefined,
      });
      ledger.start();
      return ledger;
    },
  });
  return { pipeline, db };
}

/** Hands one message to the pipeline; resolves with its receipts once the message is handled. */
async function send(
  p: ReturnType<typeof setup>['pipeline'],
  msg: Omit<InboundMessage, 'onReceipt'>,
  onReceipt?: (r: InboundReceipt) => void,
): Promise<InboundReceipt[]> {
  const got: InboundReceipt[] = [];
  await p.handleMessage({
    ...msg,
    onReceipt: (r) => {
      got.push(r);
      onReceipt?.(r);
    },
  });
  return got;
}

const from = (user: string, text: string, dedupeKey?: string): Omit<InboundMessage, 'onReceipt'> => ({
  source: { platform: 'memory', chatType: 'dm', chatId: `dm-${user}`, userId: user },
  text,
  ...(dedupeKey ? { dedupeKey } : {}),
});

describe('the receipt of an inbound message', () => {
  it('is `accepted` once, after the row is stored and before the turn runs', async () => {
    const { pipeline, db } = setup();
    pipes.model.push({ text: 'hello Alice' });
    let storedAtReceipt: string | undefined;
    let modelCallsAtReceipt = -1;
    const receipts = await send(pipeline, from('alice', 'hi', 'ext-1'), (r) => {
      storedAtReceipt = db.platforms.getDelivery(r.id)?.state;
      modelCallsAtReceipt = pipes.model.requests.length;
    });
    expect(receipts).toEqual([{ kind: 'accepted', id: expect.any(String), durable: true }]);
    expect(storedAtReceipt).toBe('accepted');
    expect(modelCallsAtReceipt).toBe(0);
    expect(db.platforms.getDelivery(receipts[0]!.id)?.state).toBe('sent');
  });

  it('names a duplicate, a refusal and an empty message, and stores no row for them', async () => {
    const { pipeline, db } = setup();
    pipes.model.push({ text: 'one' });
    await send(pipeline, from('alice', 'first', 'ext-dup'));
    const dup = await send(pipeline, from('alice', 'first again', 'ext-dup'));
    expect(dup).toEqual([{ kind: 'duplicate', id: expect.any(String) }]);
    const denied = await send(pipeline, from('mallory', 'let me in'));
    expect(denied).toEqual([{ kind: 'refused', id: expect.any(String), reason: 'access denied' }]);
    const empty = await send(pipeline, from('alice', '   '));
    expect(empty).toEqual([{ kind: 'refused', id: expect.any(String), reason: 'empty message' }]);
    for (const r of [...dup, ...denied, ...empty]) expect(db.platforms.getDelivery(r.id)).toBeUndefined();
    expect(pipes.model.requests).toHaveLength(1);
  });

  it('is `unavailable` when the ledger cannot store the row, and nothing runs', async () => {
    const { pipeline } = setup({ failInsert: true });
    const receipts = await send(pipeline, from('alice', 'hi'));
    expect(receipts).toEqual([{ kind: 'unavailable', id: expect.any(String), reason: 'database is locked' }]);
    expect(pipes.model.requests).toHaveLength(0);
  });
});
