/**
 * Restart recovery against a real SessionDB, the scripted model and in-process agents: the
 * ledger rows and transcript a crashed daemon leaves behind are written directly, then a new
 * pipeline on the same home gives each message its outcome.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageRecord, NewMessage } from '../state/types.js';
import { storedLedger, usePipelineTests } from './pipeline-testing.js';
import {
  CUT_AFTER_TOOLS_NOTICE,
  NOT_STARTED_NOTICE,
  readStoredTurn,
  recoverMessages,
} from './pipeline-recovery.js';
import type { MessageSource } from './source.js';

const pipes = usePipelineTests({
  model: { whenEmpty: { echo: 'last_user', prefix: 'echo: ' } },
  reset: false,
});

const alice: MessageSource = { platform: 'memory', chatType: 'dm', chatId: 'dm-alice', userId: 'alice' };

/** A daemon's pipeline on `root` with a stored ledger (a new one per "process"). */
function daemon(root: string) {
  const { db, adapter, pipeline, logs } = pipes.create({
    root,
    platform: { allowed_users: ['alice'], footer: false },
    warn: () => {},
    ledger: storedLedger,
    transcript: true,
  });
  pipeline.ledger.start();
  return { db, adapter, pipeline, logs };
}

const msg = (role: string, content: string, extra: Partial<NewMessage> = {}): NewMessage =>
  ({ role, content, status: 'complete', ...extra }) as NewMessage;

describe('readStoredTurn', () => {
  const rec = (m: Partial<MessageRecord>): MessageRecord =>
    ({ status: 'complete', tool_calls: null, ...m }) as MessageRecord;
  it('tells a finished turn from a cut one, and notices tools', () => {
    expect(
      readStoredTurn([rec({ role: 'user', content: 'q' }), rec({ role: 'assistant', content: 'a' })], 'q'),
    ).toEqual({ kind: 'complete', status: 'complete', text: 'a' });
    expect(readStoredTurn([], 'q')).toEqual({ kind: 'cut', toolsRan: false });
    expect(
      readStoredTurn(
        [
          rec({ role: 'user', content: 'q' }),
          rec({ role: 'assistant', content: 'pa', status: 'interrupted' }),
        ],
        'q',
      ),
    ).toEqual({ kind: 'cut', toolsRan: false });
    expect(
      readStoredTurn(
        [
          rec({ role: 'user', content: 'q' }),
          rec({ role: 'assistant', content: '', tool_calls: '[{}]' }),
          rec({ role: 'tool', content: 'done' }),
        ],
        'q',
      ),
    ).toEqual({ kind: 'cut', toolsRan: true });
    expect(readStoredTurn([rec({ role: 'user', content: 'other' })], 'q')).toEqual({ kind: 'unknown' });
  });
});

describe('recoverMessages', () => {
  it('gives every message a crashed daemon left open exactly one outcome, in message order', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-recover-'));
    const first = daemon(root);
    await first.adapter.receive({ source: alice, text: 'hello' });
    expect(first.adapter.texts()).toEqual(['echo: hello']);
    const key = first.pipeline.keyOf(alice);
    const sessionId = first.pipeline.opts.store.get(key)!.session_id;
    const t = first.db.platforms;
    let at = Date.now();
    const row = (id: string, extra: Record<string, unknown>) =>
      t.insertDelivery({
        id,
        platform: 'memory',
        chat_id: 'dm-alice',
        session_key: key,
        created_at: at++,
        ...extra,
      });
    /** A turn that had started when the daemon died, with what it stored. */
    const running = (id: string, prompt: string, stored: NewMessage[]) => {
      const after = t.lastMessageId(sessionId);
      first.db.appendMessages(sessionId, [msg('user', prompt), ...stored]);
      row(id, { session_id: sessionId, prompt_text: prompt, state: 'running', after_message_id: after });
    };
    row('in-0', { session_id: sessionId, state: 'pending', reply: 'the unsent reply', outcome: 'reply' });
    running('in-1', 'finished before the crash', [msg('assistant', 'the stored answer')]);
    running('in-2', 'cut early', [msg('assistant', 'parti', { status: 'interrupted' })]);
    running('in-3', 'cut after a tool', [
      msg('assistant', '', {
        tool_calls: '[{"id":"c1","type":"function","function":{"name":"todo","arguments":"{}"}}]',
      }),
      { role: 'tool', content: 'ok', tool_call_id: 'c1', tool_name: 'todo' } as NewMessage,
    ]);
    row('in-4', { session_id: sessionId, prompt_text: 'still queued', state: 'accepted' });
    row('in-5', { state: 'accepted' });
    // accepted, and the daemon died before it became a prompt
    row('in-6', { state: 'accepted', inbound: JSON.stringify({ text: 'just arrived', source: alice }) });
    first.db.close();

    const requestsBefore = pipes.model.requests.length;
    const second = daemon(root);
    expect(await recoverMessages(second.pipeline)).toBe(6);
    expect(second.adapter.texts('dm-alice')).toEqual([
      'the unsent reply',
      'the stored answer',
      'echo: cut early',
      CUT_AFTER_TOOLS_NOTICE,
      'echo: still queued',
      NOT_STARTED_NOTICE,
      'echo: just arrived',
    ]);
    // only the two prompts that never finished asked the model
    const asked = pipes.model.requests.slice(requestsBefore).map((r) => {
      const users = (r.body.messages as Array<{ role: string; content: string }>).filter(
        (m) => m.role === 'user',
      );
      return users.at(-1)?.content;
    });
    expect(asked).toEqual(['cut early', 'still queued', 'just arrived']);
    const states = ['in-0', 'in-1', 'in-2', 'in-3', 'in-4', 'in-5', 'in-6'].map(
      (id) => second.db.platforms.getDelivery(id)?.state,
    );
    expect(states.every((s) => s === 'sent')).toBe(true);
    expect(
      second.logs.filter((l) => l.startsWith('message outcome:')).map((l) => /outcome=(\w+)/.exec(l)![1]),
    ).toEqual(['reply', 'reply', 'reply', 'error', 'reply', 'error', 'reply']);
    // nothing is left for a third start
    const third = daemon(root);
    expect(await recoverMessages(third.pipeline)).toBe(0);
    expect(third.adapter.texts()).toEqual([]);
  });

  it('leaves alone a message this daemon accepted before its recovery ran', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-recover-'));
    const d = daemon(root);
    // a message arrives (its download still running) before the recovery reads the ledger
    let release!: () => void;
    const fetched = new Promise<void>((r) => (release = r));
    const handled = d.adapter.receive({
      source: alice,
      text: 'arrived early',
      fetchAttachments: async () => {
        await fetched;
        return {};
      },
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(d.db.platforms.listDeliveries('memory', ['accepted'])).toHaveLength(1);
    expect(await recoverMessages(d.pipeline)).toBe(0);
    release();
    await handled;
    expect(d.adapter.texts('dm-alice')).toEqual(['echo: arrived early']);
  });
});
