/**
 * Schema v6: every model call's tokens and cost in `model_calls`, summed per session and per
 * message; a v5 file upgrades keeping its rows (their cost unknown).
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { totalsStatus, type ModelCallInput } from './model-calls.js';
import { SCHEMA_VERSION } from './schema.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-model-calls-');

const call = (over: Partial<ModelCallInput> = {}): ModelCallInput => ({
  provider: 'openai',
  model: 'gpt-4o',
  prompt_tokens: 1000,
  completion_tokens: 100,
  cached_tokens: 400,
  cost_micros: 2_500,
  cost_status: 'priced',
  price_source: 'table',
  ...over,
});

describe('model_calls (schema v6)', () => {
  it('records calls with their message, bumps the session counters, sums per session', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui' });
    const m1 = d.appendMessage(s.id, { role: 'assistant', content: 'one' });
    const m2 = d.appendMessage(s.id, { role: 'assistant', content: 'two' });
    d.modelCalls.record(s.id, call({ messageId: m1 }));
    d.modelCalls.record(s.id, call({ messageId: m2, cost_micros: null, cost_status: 'unknown', model: 'x' }));
    d.modelCalls.record(
      s.id,
      call({ cost_micros: 0, cost_status: 'local', prompt_tokens: 10, completion_tokens: 1 }),
    );
    expect(d.getSession(s.id)).toMatchObject({ prompt_tokens: 2010, completion_tokens: 201 });
    const t = d.modelCalls.sessionTotals(s.id);
    expect(t).toMatchObject({
      prompt_tokens: 2010,
      completion_tokens: 201,
      cached_tokens: 1200,
      cost_micros: 2_500,
      priced_calls: 1,
      local_calls: 1,
      unknown_calls: 1,
      unknown_tokens: 1100,
    });
    expect(totalsStatus(t)).toBe('partial');
    const byMessage = d.modelCalls.messageUsage(s.id);
    expect(byMessage.get(m1)).toMatchObject({
      cost_micros: 2_500,
      cost_status: 'priced',
      cached_tokens: 400,
    });
    expect(byMessage.get(m2)).toMatchObject({ cost_micros: null, cost_status: 'unknown', model: 'x' });
    expect(byMessage.size).toBe(2);
  });

  it('keeps the calls of an undone turn and of a deleted session, copies none into a fork', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui' });
    d.appendMessage(s.id, { role: 'user', content: 'hi' });
    const m = d.appendMessage(s.id, { role: 'assistant', content: 'hello' });
    d.modelCalls.record(s.id, call({ messageId: m }));
    const fork = d.transcript.fork(s.id);
    expect(d.modelCalls.sessionTotals(fork.id).cost_micros).toBe(0);
    d.transcript.truncateFrom(s.id, m);
    expect(d.modelCalls.sessionTotals(s.id).cost_micros).toBe(2_500);
    d.deleteSession(s.id);
    expect(d.usageReports.report({ by: 'total' })).toMatchObject([{ calls: 1, cost_micros: 2_500 }]);
  });

  it('refuses a call of an unknown session and negative counts', () => {
    const d = fx.open();
    expect(() => d.modelCalls.record('20260101_000000_abcdef', call())).toThrow(/no session/);
    const s = d.createSession({ source: 'tui' });
    expect(() => d.modelCalls.record(s.id, call({ prompt_tokens: -1 }))).toThrow(/prompt_tokens/);
  });

  it('upgrades a v5 file: sessions and messages kept, old tokens untracked, new calls recorded', () => {
    const d = fx.open();
    const s = d.createSession({ source: 'tui', title: 'before v6' });
    d.appendMessage(s.id, { role: 'user', content: 'old prompt' });
    d.appendMessage(s.id, { role: 'assistant', content: 'old answer', status: 'complete' });
    d.addUsage(s.id, 300, 30);
    d.close();
    // the file as hermes with schema v5 wrote it
    const raw = new Database(fx.file);
    raw.exec('DROP TABLE model_calls');
    raw.pragma('user_version = 5');
    raw.close();

    // a read-only reader of the v5 file (another process: `hermes usage`) reads it without the table
    const reader = fx.open({ readonly: true });
    expect(reader.modelCalls.sessionTotals(s.id).priced_calls).toBe(0);
    expect(reader.usageReports.report({ by: 'total' })).toMatchObject([
      { key: 'total', untracked_tokens: 330, cost_status: 'unknown' },
    ]);
    reader.close();

    const again = fx.open();
    expect(again.getSession(s.id)).toMatchObject({
      title: 'before v6',
      prompt_tokens: 300,
      completion_tokens: 30,
    });
    expect(again.getMessages(s.id).map((m) => m.content)).toEqual(['old prompt', 'old answer']);
    expect(again.search('old answer').map((h) => h.session_id)).toEqual([s.id]);
    const reply = again.appendMessage(s.id, { role: 'assistant', content: 'new answer' });
    again.modelCalls.record(s.id, call({ messageId: reply }));
    const [row] = again.usageReports.report({ by: 'total' });
    // old tokens stay counted, their cost unknown: the total is partial
    expect(row).toMatchObject({
      prompt_tokens: 1300,
      completion_tokens: 130,
      untracked_tokens: 330,
      cost_micros: 2_500,
    });
    expect(row!.cost_status).toBe('partial');
    const check = new Database(fx.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(6);
    check.close();
  });
});
