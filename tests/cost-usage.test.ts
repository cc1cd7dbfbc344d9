/**
 * Cost across processes: a scripted turn with known usage (cached tokens included) run by the
 * daemon is priced exactly — from OpenRouter's `/models` prices when the provider's models
 * endpoint reports them (profile `default`), from the bundled table otherwise (profile `work`,
 * OpenAI's gpt-4o) — and the same number shows in `hermes chat --json`'s `message.complete`, the
 * `session.usage` event, `hermes sessions show --json` and `hermes usage --json`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

const SONNET = 'anthropic/claude-sonnet-4.5';
/** 10,000 prompt tokens of which 6,000 cached, 500 output. */
const KNOWN_USAGE = {
  prompt_tokens: 10_000,
  completion_tokens: 500,
  prompt_tokens_details: { cached_tokens: 6_000 },
};

let model: FakeModelServer;
let root: string;
let workHome: string;
/** The session of the first test (priced by OpenRouter's prices). */
let pricedSession = '';

beforeAll(async () => {
  // OpenRouter's prices for Sonnet differ from the bundled table's (3 / 15 / 0.30): they must win
  model = await startFakeModelServer({
    pricing: {
      [SONNET]: {
        prompt: '0.000004',
        completion: '0.00002',
        input_cache_read: '0.0000004',
        input_cache_write: '0.000005',
      },
    },
  });
  root = makeTestHome({
    config: `model:\n  provider: openrouter\n  base_url: ${model.url}\n  default: ${SONNET}`,
    env: 'OPENROUTER_API_KEY=sk-or-test\n',
  });
  const created = await runHermes(root, ['profile', 'create', 'work']);
  expect(created.code, created.stderr).toBe(0);
  workHome = join(root, 'profiles', 'work');
  writeFileSync(
    join(workHome, 'config.yaml'),
    `_config_version: 2\nmodel:\n  provider: openai\n  base_url: ${model.url}\n  default: gpt-4o\n`,
  );
  writeFileSync(join(workHome, '.env'), 'OPENAI_API_KEY=sk-test\n', { mode: 0o600 });
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

type Line = { type: string; session_id: string; payload: Record<string, unknown> };
const jsonLines = (out: string): Line[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

describe('cost across processes', () => {
  it('OpenRouter prices from /models: chat --json, sessions show, hermes usage agree to the micro-dollar', async () => {
    const client = await connect({ root }, { name: 'cost-test', capabilities: { approvals: false } });
    let sessionId: string;
    try {
      // opening a session starts the once-a-day price fetch; the turn waits for nothing
      const { session } = await client.request('session.create', { source: 'cli', cwd: root });
      sessionId = session.id;
      pricedSession = session.id;
      await waitFor(() => existsSync(join(root, 'model-prices.json')), 'the price cache file');
    } finally {
      await client.close();
    }
    const priceFetch = model.requests.find((r) => r.method === 'GET' && r.path === '/v1/models');
    expect(priceFetch?.headers.authorization).toBeUndefined(); // prices are public: no key sent

    model.push({ text: 'priced by OpenRouter', usage: KNOWN_USAGE });
    const run = await runHermes(root, ['chat', '-q', 'hello', '--json', '--session', sessionId]);
    expect(run.code, run.stderr).toBe(0);
    const complete = jsonLines(run.stdout).find((e) => e.type === 'message.complete')!;
    // 4,000 × $4 + 6,000 × $0.40 + 500 × $20 per million = 16,000 + 2,400 + 10,000 µ$
    expect(complete.payload.usage).toMatchObject({
      cached_tokens: 6_000,
      cost_usd: 0.0284,
      cost_status: 'priced',
    });

    const show = JSON.parse((await runHermes(root, ['sessions', 'show', sessionId, '--json'])).stdout);
    expect(show.cost).toEqual({
      cost_usd: 0.0284,
      cost_status: 'priced',
      unpriced_tokens: 0,
      untracked_tokens: 0,
    });
    const reply = show.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(reply.usage).toMatchObject({ prompt_tokens: 10_000, cost_usd: 0.0284, model: SONNET });

    const usage = JSON.parse((await runHermes(root, ['usage', '--json'])).stdout);
    expect(usage.rows).toEqual([
      expect.objectContaining({
        key: SONNET,
        calls: 1,
        input_tokens: 10_000,
        cached_tokens: 6_000,
        cost_usd: 0.0284,
      }),
    ]);
    expect(usage.total).toMatchObject({ cost_usd: 0.0284, cost_status: 'priced' });
  });

  it('table prices in another profile: session.usage carries turn and session cost; --by profile keeps them apart', async () => {
    const client = await connect(
      { root },
      { name: 'cost-test-work', profile: 'work', capabilities: { approvals: false } },
    );
    try {
      const { session } = await client.request('session.create', { source: 'tui', cwd: root });
      await client.request('session.attach', { session_id: session.id });
      model.push({ text: 'one', usage: KNOWN_USAGE }, { text: 'two', usage: KNOWN_USAGE });
      for (const [text, sessionCost] of [
        ['first', 0.0225],
        ['second', 0.045],
      ] as const) {
        const seen = client.waitForEvent(
          (e) =>
            e.type === 'session.usage' &&
            e.session_id === session.id &&
            e.payload.session_cost_usd === sessionCost,
          20_000,
        );
        await client.request('prompt.submit', { session_id: session.id, text });
        const ev = await seen;
        // gpt-4o: 4,000 × $2.50 + 6,000 × $1.25 + 500 × $10 per million = $0.0225 a turn
        // the call is stored before its events go out: the readers below see it
        expect(ev.payload).toMatchObject({
          usage: { cost_usd: 0.0225, cost_status: 'priced' },
          session_cost_status: 'priced',
        });
      }
    } finally {
      await client.close();
    }
    const byProfile = JSON.parse((await runHermes(root, ['usage', '--by', 'profile', '--json'])).stdout);
    expect(byProfile.rows.map((r: { key: string; cost_usd: number }) => [r.key, r.cost_usd])).toEqual([
      ['default', 0.0284],
      ['work', 0.045],
    ]);
    expect(byProfile.total).toMatchObject({ calls: 3, cost_usd: 0.0734 });
    // without --by profile each profile sees only its own
    const work = JSON.parse((await runHermes(root, ['-p', 'work', 'usage', '--by', 'day', '--json'])).stdout);
    expect(work.total).toMatchObject({ calls: 2, cost_usd: 0.045 });
  });

  it('the session cost survives a daemon restart: an attach shows it before any new turn', async () => {
    expect(pricedSession).not.toBe('');
    expect((await runHermes(root, ['gateway', 'stop'])).code).toBe(0);
    const started = await runHermes(root, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const client = await connect({ root }, { name: 'cost-test-attach', capabilities: { approvals: false } });
    try {
      const snap = await client.request('session.attach', { session_id: pricedSession });
      expect(snap.kind).toBe('snapshot');
      expect(snap.kind === 'snapshot' && snap.usage).toMatchObject({
        session_cost_usd: 0.0284,
        session_cost_status: 'priced',
      });
    } finally {
      await client.close();
    }
  });
});
