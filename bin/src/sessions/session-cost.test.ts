import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { SessionDB } from '@hermes/core/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing.js';

let home: HermesHome;
let id: string;
let replyId: number;

beforeEach(() => {
  home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-show-cost-'))).ensure();
  const db = SessionDB.open(home.stateDbFile, { warn: () => {} });
  const s = db.createSession({ source: 'tui', title: 'Priced', model: 'gpt-4o' });
  db.appendMessage(s.id, { role: 'user', content: 'hello' });
  replyId = db.appendMessage(s.id, { role: 'assistant', content: 'Hi!', status: 'complete' });
  db.modelCalls.record(s.id, {
    messageId: replyId,
    provider: 'openai',
    model: 'gpt-4o',
    prompt_tokens: 10_000,
    completion_tokens: 500,
    cached_tokens: 6_000,
    cost_micros: 22_500,
    cost_status: 'priced',
  });
  id = s.id;
  db.close();
});
afterEach(() => rmSync(home.root, { recursive: true, force: true }));

describe('sessions show: cost', () => {
  it('prints the session cost and each reply’s tokens and cost', async () => {
    const text = (await runCliInProcess(home, ['sessions', 'show', id])).out;
    expect(text).toContain('cost $0.0225');
    expect(text).toContain('10,000 in (6,000 cached) / 500 out · $0.0225');
  });

  it('--json carries `cost` and each reply’s `usage`', async () => {
    const out = JSON.parse((await runCliInProcess(home, ['sessions', 'show', id, '--json'])).out);
    expect(out.cost).toEqual({
      cost_usd: 0.0225,
      cost_status: 'priced',
      unpriced_tokens: 0,
      untracked_tokens: 0,
    });
    const reply = out.messages.find((m: { id: number }) => m.id === replyId);
    expect(reply.usage).toMatchObject({ cached_tokens: 6_000, cost_usd: 0.0225, cost_status: 'priced' });
    expect(out.messages.find((m: { role: string }) => m.role === 'user')).not.toHaveProperty('usage');
  });
});
