/** The platform tables (schema v4): the delivery ledger's rows and the replay window. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.js';
import type { SessionDB } from './session-db.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-platform-tables-');
const db = (): SessionDB => fx.open();

describe('SessionDB platform tables', () => {
  it('keeps delivery rows across connections; a seen platform id is a duplicate', () => {
    const d = db();
    expect(d.platforms.insertDelivery({ id: 'in-1', platform: 'irc', chat_id: 'alice' }, 10)).toBe('ok');
    expect(
      d.platforms.insertDelivery({ id: 'in-2', platform: 'irc', chat_id: 'alice', external_id: 'x1' }, 11),
    ).toBe('ok');
    expect(
      d.platforms.insertDelivery({ id: 'in-3', platform: 'irc', chat_id: 'alice', external_id: 'x1' }, 12),
    ).toBe('duplicate');
    // the same platform id on another platform is another message
    expect(
      d.platforms.insertDelivery({ id: 'in-4', platform: 'webhook', chat_id: 'c', external_id: 'x1' }, 13),
    ).toBe('ok');
    expect(d.platforms.updateDelivery('in-1', { state: 'pending', reply: 'hi', attempts: 2 }, 20)).toBe(true);
    expect(d.platforms.updateDelivery('nope', { state: 'sent' })).toBe(false);
    d.close();
    const again = db();
    expect(again.platforms.getDelivery('in-1')).toMatchObject({
      state: 'pending',
      reply: 'hi',
      attempts: 2,
      chunks_sent: 0,
      created_at: 10,
      updated_at: 20,
    });
    expect(again.platforms.listDeliveries('irc', ['accepted', 'pending']).map((r) => r.id)).toEqual([
      'in-1',
      'in-2',
    ]);
    expect(again.platforms.getDelivery('in-3')).toBeUndefined();
  });

  it('knows which sessions have open deliveries, and prunes finished rows only', () => {
    const d = db();
    const t = d.platforms;
    t.insertDelivery({ id: 'a', platform: 'irc', chat_id: 'c', session_id: 's1', state: 'running' }, 1);
    t.insertDelivery({ id: 'b', platform: 'irc', chat_id: 'c', session_id: 's2', state: 'sent' }, 1);
    expect(t.hasOpenDeliveries('s1')).toBe(true);
    expect(t.hasOpenDeliveries('s2')).toBe(false);
    t.updateDelivery('a', { state: 'running' }, 5);
    t.updateDelivery('b', { state: 'sent' }, 5);
    expect(t.pruneDeliveries(10)).toBe(1);
    expect(t.getDelivery('a')).toBeDefined();
    expect(t.getDelivery('b')).toBeUndefined();
  });

  it('claims a replay key once until it expires, across connections', () => {
    const d = db();
    expect(d.platforms.claimReplayKey('webhook', 'k1', 1_000, 0)).toBe(true);
    expect(d.platforms.claimReplayKey('webhook', 'k1', 1_000, 10)).toBe(false);
    expect(d.platforms.claimReplayKey('other', 'k1', 1_000, 10)).toBe(true);
    d.close();
    const again = db();
    expect(again.platforms.claimReplayKey('webhook', 'k1', 2_000, 500)).toBe(false);
    // expired keys are forgotten
    expect(again.platforms.claimReplayKey('webhook', 'k1', 3_000, 1_000)).toBe(true);
  });

  it('the newest message id of a session', () => {
    const d = db();
    const s = d.createSession({ source: 'irc' });
    expect(d.platforms.lastMessageId(s.id)).toBe(0);
    const id = d.appendMessage(s.id, { role: 'user', content: 'x' });
    expect(d.platforms.lastMessageId(s.id)).toBe(id);
  });

  it('migrates a v3 database to v4: platform tables added, queued prompts keep theirs and gain origin', () => {
    const d = db();
    const s = d.createSession({ source: 'irc' });
    d.queuePrompt(s.id, { promptId: 'p-old', text: 'waiting' });
    d.close();
    const raw = new Database(fx.file);
    raw.exec('DROP TABLE platform_deliveries; DROP TABLE platform_replay_keys');
    raw.exec('ALTER TABLE queued_prompts DROP COLUMN origin');
    raw.pragma('user_version = 3');
    raw.close();

    const again = db();
    expect(again.queuedPrompts(s.id).map((q) => [q.prompt_id, q.origin])).toEqual([['p-old', null]]);
    again.queuePrompt(s.id, { promptId: 'p-new', text: 'from irc', origin: 'in-7' });
    expect(again.queuedPrompts(s.id).map((q) => q.origin)).toEqual([null, 'in-7']);
    expect(again.platforms.insertDelivery({ id: 'in-7', platform: 'irc', chat_id: 'c' })).toBe('ok');
    const check = new Database(fx.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });
});
