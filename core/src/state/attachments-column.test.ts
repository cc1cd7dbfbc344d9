/**
 * Schema v5: what was attached to a prompt is stored with its message (`messages.attachments`)
 * and with a waiting prompt (`queued_prompts.attachments`); a v4 file upgrades keeping its data.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-attach-col-');
const IMG = JSON.stringify([
  { kind: 'image', name: 'shot.png', mime: 'image/png', bytes: 69, sha256: 'a'.repeat(64) },
]);

describe('SessionDB attachments (schema v5)', () => {
  it('stores a user message with its attachments and reads them back; none reads as null', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui' });
    const id = d.appendMessage(s.id, { role: 'user', content: 'what is this?', attachments: IMG });
    d.appendMessage(s.id, { role: 'assistant', content: 'a red pixel' });
    const [user, reply] = d.getMessages(s.id);
    expect(user!.id).toBe(id);
    expect(user!.attachments).toBe(IMG);
    expect(reply!.attachments).toBeNull();
    expect(d.exportSession(s.id).messages[0]!.attachments).toBe(IMG);
  });

  it('keeps the attachments of a waiting prompt', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui' });
    d.queuePrompt(s.id, { promptId: 'p-1', text: 'look', attachments: IMG });
    d.queuePrompt(s.id, { promptId: 'p-2', text: 'plain' });
    expect(d.queuedPrompts(s.id).map((q) => q.attachments)).toEqual([IMG, null]);
  });

  it('upgrades a v4 file: sessions, messages and queued prompts kept, the columns added', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui', title: 'before v5' });
    d.appendMessage(s.id, { role: 'user', content: 'old prompt' });
    d.appendMessage(s.id, { role: 'assistant', content: 'old answer', status: 'complete' });
    d.queuePrompt(s.id, { promptId: 'p-old', text: 'waiting', origin: 'in-1' });
    d.close();
    // the file as hermes with schema v4 wrote it
    const raw = new Database(fx.file);
    raw.exec('ALTER TABLE messages DROP COLUMN attachments');
    raw.exec('ALTER TABLE queued_prompts DROP COLUMN attachments');
    raw.pragma('user_version = 4');
    raw.close();

    // a read-only reader of the v4 file (another process) still reads it
    const reader = fx.open({ readonly: true });
    expect(reader.getMessages(s.id).map((m) => m.content)).toEqual(['old prompt', 'old answer']);
    reader.close();

    const again = fx.open();
    expect(again.getSession(s.id)!.title).toBe('before v5');
    const msgs = again.getMessages(s.id);
    expect(msgs.map((m) => [m.role, m.content, m.attachments])).toEqual([
      ['user', 'old prompt', null],
      ['assistant', 'old answer', null],
    ]);
    expect(again.queuedPrompts(s.id).map((q) => [q.prompt_id, q.origin, q.attachments])).toEqual([
      ['p-old', 'in-1', null],
    ]);
    expect(again.search('old answer').map((h) => h.session_id)).toEqual([s.id]);
    again.appendMessage(s.id, { role: 'user', content: 'new prompt', attachments: IMG });
    expect(again.getMessages(s.id).at(-1)!.attachments).toBe(IMG);
    const check = new Database(fx.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(6);
    check.close();
  });
});
