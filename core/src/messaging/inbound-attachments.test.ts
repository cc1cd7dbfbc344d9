/**
 * Lazy attachments: `resolveInboundAttachments` merges what `fetchAttachments` gives, and the
 * pipeline calls it only for an authorized sender — an unknown DM gets its pairing code and its
 * attachments are never fetched, saved or given to the model; an allowed sender's are, as before.
 * Against the scripted model server and a real SessionDB.
 */
import { existsSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer } from '../../../tests/support/fake-model-server.js';
import type { HermesHome } from '../home/home.js';
import {
  PlatformAdapter,
  type FetchedAttachments,
  type InboundMessage,
  type InboundReceipt,
  type SendResult,
} from './adapter.js';
import { resolveInboundAttachments } from './inbound-attachments.js';
import { usePipelineTests } from './pipeline-testing.js';
import type { MessageSource } from './source.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const src = (userId: string, chatType: 'dm' | 'group' = 'dm'): MessageSource => ({
  platform: 'memory',
  chatType,
  chatId: chatType === 'dm' ? `dm-${userId}` : 'room',
  userId,
  userName: userId,
});

/** A thunk that counts its calls and gives one image and one document. */
function counted(): { calls: number; fetch: () => Promise<FetchedAttachments> } {
  const c = {
    calls: 0,
    fetch: async (): Promise<FetchedAttachments> => {
      c.calls++;
      return {
        images: [{ kind: 'image', data: PNG.toString('base64'), name: 'photo.png', mime: 'image/png' }],
        files: [{ name: 'notes.txt', data: Buffer.from('hello'), mime: 'text/plain', kind: 'document' }],
      };
    },
  };
  return c;
}

describe('resolveInboundAttachments', () => {
  it('returns a message without a thunk as it is', async () => {
    const m: InboundMessage = { source: src('a'), text: 'hi' };
    expect(await resolveInboundAttachments(m)).toBe(m);
  });

  it('merges images and files after the given ones and appends notes line by line', async () => {
    const m: InboundMessage = {
      source: src('a'),
      text: 'look',
      files: [{ name: 'a.txt', data: Buffer.from('a') }],
      fetchAttachments: async () => ({
        files: [{ name: 'b.txt', data: Buffer.from('b') }],
        notes: ['', '[attachment not received: "big.zip"]'],
      }),
    };
    const r = await resolveInboundAttachments(m);
    expect(r.fetchAttachments).toBeUndefined();
    expect(r.files?.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    expect(r.images).toBeUndefined();
    expect(r.text).toBe('look\n[attachment not received: "big.zip"]');
  });

  it('turns a thunk that throws into a note', async () => {
    const r = await resolveInboundAttachments({
      source: src('a'),
      text: '',
      fetchAttachments: () => Promise.reject(new Error('boom')),
    });
    expect(r.text).toBe('[attachments not received: boom]');
  });
});

/** An adapter that only emits (its receipt timeout is 200 ms). */
class Emitter extends PlatformAdapter {
  emit(m: Omit<InboundMessage, 'onReceipt'>): Promise<InboundReceipt> {
    return this.emitMessageWithReceipt(m, 'm-1', 200);
  }
  admitted(source: MessageSource): boolean {
    return this.senderAdmitted(source);
  }
  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async send(): Promise<SendResult> {
    return { ok: true };
  }
  async getChatInfo() {
    return { name: 'x', type: 'dm' as const };
  }
}

describe('senderAdmitted', () => {
  it("is the host's answer; true when the host does not say or its check throws", () => {
    const a = new Emitter('x');
    expect(a.admitted(src('a'))).toBe(true);
    a.setHandlers({ onMessage: () => undefined });
    expect(a.admitted(src('a'))).toBe(true);
    a.setHandlers({ onMessage: () => undefined, isAuthorized: (s) => s.userId === 'alice' });
    expect([a.admitted(src('alice')), a.admitted(src('mallory'))]).toEqual([true, false]);
    a.setHandlers({
      onMessage: () => undefined,
      isAuthorized: () => {
        throw new Error('unreadable pairing store');
      },
    });
    expect(a.admitted(src('a'))).toBe(true);
  });
});

describe('emitMessageWithReceipt and fetchAttachments', () => {
  const slow = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  it('does not count the time the fetch runs against the decision timeout', async () => {
    const a = new Emitter('x');
    a.setHandlers({
      onMessage: async (m) => {
        const got = await m.fetchAttachments!();
        m.onReceipt?.({ kind: 'accepted', id: String(got.notes?.length), durable: false });
      },
    });
    const r = await a.emit({
      source: src('a'),
      text: '',
      fetchAttachments: async () => {
        await slow(600);
        return { notes: ['x'] };
      },
    });
    expect(r).toEqual({ kind: 'accepted', id: '1', durable: false });
  });

  it('a handler slow to decide without a fetch still times out', async () => {
    const a = new Emitter('x');
    a.setHandlers({
      onMessage: async (m) => {
        await slow(600);
        m.onReceipt?.({ kind: 'accepted', id: 'late', durable: false });
      },
    });
    expect(await a.emit({ source: src('a'), text: 'hi' })).toMatchObject({ kind: 'unavailable' });
  });
});

const pipes = usePipelineTests();
/** The fixture's scripted model server, once started. */
let model: FakeModelServer;
beforeAll(() => void (model = pipes.model));

const setup = () =>
  pipes.create({
    prefix: 'hermes-lazyatt-',
    model: { vision: true },
    platform: { allowed_users: ['alice'] },
    caps: { uploads: true },
  });

const mediaFiles = (home: HermesHome): string[] =>
  existsSync(home.mediaDir) ? readdirSync(home.mediaDir, { recursive: true }).map(String) : [];

describe('attachments in the pipeline come after authorization', () => {
  it('an unknown DM gets its pairing code; its attachments are never fetched or saved', async () => {
    const { adapter, home } = setup();
    const att = counted();
    await adapter.receive({ source: src('mallory'), text: '', fetchAttachments: att.fetch });
    expect(adapter.texts('dm-mallory')[0]).toMatch(/pairing code is [A-Z2-9]{8}/);
    expect(att.calls).toBe(0);
    expect(mediaFiles(home)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it('an unknown sender in a group is ignored without a fetch', async () => {
    const { adapter } = setup();
    const att = counted();
    await adapter.receive({ source: src('mallory', 'group'), text: 'look', fetchAttachments: att.fetch });
    expect(att.calls).toBe(0);
    expect(adapter.sent).toHaveLength(0);
  });

  it('an allowed sender: fetched once, the image reaches the model and the file is saved', async () => {
    const { adapter, home, store } = setup();
    const att = counted();
    model.push({ text: 'Seen.' });
    await adapter.receive({ source: src('alice'), text: 'what is this?', fetchAttachments: att.fetch });
    expect(adapter.texts('dm-alice')).toEqual(['Seen.']);
    expect(att.calls).toBe(1);
    const sessionId = store.get('agent:main:memory:dm:dm-alice')!.session_id;
    expect(readdirSync(home.sessionMediaDir(sessionId))).toEqual(['notes.txt']);
    const msgs = (model.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> })
      .messages;
    const parts = msgs.filter((m) => m.role === 'user').at(-1)!.content as Array<{ type: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
  });

  it('a redelivered copy (the same platform id) is dropped as a duplicate before any fetch', async () => {
    const { adapter } = setup();
    const att = counted();
    model.push({ text: 'Seen.' });
    const msg = { source: src('alice'), text: 'look', dedupeKey: 'ext-7', fetchAttachments: att.fetch };
    await adapter.receive(msg);
    await adapter.receive({ ...msg });
    expect(att.calls).toBe(1);
    expect(adapter.texts('dm-alice')).toEqual(['Seen.']);
  });

  it('stores what the fetch added in the ledger row (a replay after a crash names the files)', async () => {
    const { adapter, pipeline } = setup();
    model.push({ text: 'Seen.' });
    const got: string[] = [];
    await adapter.receive({
      source: src('alice'),
      text: 'look',
      fetchAttachments: counted().fetch,
      onReceipt: (r) => got.push(r.id),
    });
    const inbound = JSON.parse(pipeline.ledger.get(got[0]!)!.inbound!) as { attachments?: unknown[] };
    expect(inbound.attachments).toHaveLength(2);
  });

  it("the pipeline's isAuthorized answers without side effects (no pairing code, no reply)", async () => {
    const { adapter, pipeline } = setup();
    expect(pipeline.isAuthorized(src('alice'))).toBe(true);
    expect(pipeline.isAuthorized(src('mallory'))).toBe(false);
    expect(pipeline.isAuthorized(src('mallory', 'group'))).toBe(false);
    expect(adapter.sent).toHaveLength(0);
  });

  it('a message of attachments only whose fetch gives nothing is dropped as empty', async () => {
    const { adapter } = setup();
    await adapter.receive({ source: src('alice'), text: '', fetchAttachments: async () => ({}) });
    expect(adapter.sent).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });
});
