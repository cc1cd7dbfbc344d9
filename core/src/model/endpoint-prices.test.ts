import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { EndpointPrices, getJsonUnref, parseModelsPricing } from './endpoint-prices.js';

let server: FakeModelServer;
const dirs: string[] = [];
const tmpFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'hermes-prices-'));
  dirs.push(d);
  return join(d, 'model-prices.json');
};

beforeAll(async () => {
  server = await startFakeModelServer({
    pricing: {
      'anthropic/claude-sonnet-4.5': {
        prompt: '0.000003',
        completion: '0.000015',
        input_cache_read: '0.0000003',
        input_cache_write: '0.00000375',
      },
      'openrouter/auto': { prompt: '-1', completion: '-1' },
    },
  });
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => server.requests.splice(0));

const call = () => ({ provider: 'openrouter', model: 'Anthropic/Claude-Sonnet-4.5', baseURL: server.url });

describe('endpoint prices', () => {
  it('parses OpenRouter pricing (USD per token strings) into USD per million; skips -1', () => {
    expect(
      parseModelsPricing({
        data: [{ id: 'a/b', pricing: { prompt: '0.00000015', completion: '0.0000006' } }],
      }),
    ).toEqual({ 'a/b': { input: 0.15, output: 0.6 } });
    expect(parseModelsPricing({ data: [{ id: 'x', pricing: { prompt: '-1', completion: '-1' } }] })).toEqual(
      {},
    );
    expect(parseModelsPricing('garbage')).toEqual({});
  });

  it('answers at once from nothing, fetches in the background, then answers from the file', async () => {
    const file = tmpFile();
    const prices = new EndpointPrices(file);
    expect(prices.lookup(call())).toBeUndefined(); // never waits: the table prices this one
    await prices.warm('openrouter', server.url); // joins the fetch started by lookup
    expect(server.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    expect(prices.lookup(call())).toEqual({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
    expect(existsSync(file)).toBe(true);
    // another process (a new instance) reads the file and does not fetch again within the day
    const again = new EndpointPrices(file);
    expect(again.lookup(call())).toEqual({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
    await again.warm('openrouter', server.url);
    expect(server.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });

  it('fetches again after a day, at most once', async () => {
    let now = 1_000_000;
    const prices = new EndpointPrices(tmpFile(), { now: () => now });
    await prices.warm('openrouter', server.url);
    now += 23 * 3600_000;
    await prices.warm('openrouter', server.url);
    expect(server.requests).toHaveLength(1);
    now += 2 * 3600_000;
    await Promise.all([prices.warm('openrouter', server.url), prices.warm('openrouter', server.url)]);
    expect(server.requests).toHaveLength(2);
  });

  it('a failed fetch keeps the table prices and is not retried within the day', async () => {
    const prices = new EndpointPrices(tmpFile());
    await prices.warm('openrouter', 'http://127.0.0.1:1/v1');
    expect(prices.lookup({ ...call(), baseURL: 'http://127.0.0.1:1/v1' })).toBeUndefined();
    let fetched = 0;
    const counting = new EndpointPrices(tmpFile(), {
      fetchJson: async () => {
        fetched++;
        throw new Error('offline');
      },
    });
    await counting.warm('openrouter', server.url);
    await counting.warm('openrouter', server.url);
    expect(fetched).toBe(1);
  });

  it('asks only providers that report prices', async () => {
    const prices = new EndpointPrices(tmpFile());
    expect(prices.lookup({ ...call(), provider: 'openai' })).toBeUndefined();
    await prices.warm('openai', server.url);
    expect(server.requests).toHaveLength(0);
  });
});

describe('getJsonUnref', () => {
  it('reads JSON and never keeps a process alive (a one-shot chat exits while prices load)', async () => {
    expect(await getJsonUnref(`${server.url}/models`)).toMatchObject({ object: 'list' });
    // a server that accepts and never answers
    const held: Socket[] = [];
    const silent = createServer((s) => void held.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const code = `import { getJsonUnref } from ${JSON.stringify(new URL('./endpoint-prices.ts', import.meta.url).pathname)};
        getJsonUnref('http://127.0.0.1:${port}/models').catch(() => {});`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        stdio: 'ignore',
      });
      const exit = await new Promise<number | null>((resolve, reject) => {
        // the fetch's own timeout is 15 s: an exit well before it shows nothing held the process
        const t = setTimeout(() => reject(new Error('the process was kept alive by the fetch')), 10_000);
        child.on('exit', (c) => {
          clearTimeout(t);
          resolve(c);
        });
      });
      expect(exit).toBe(0);
    } finally {
      for (const s of held) s.destroy();
      silent.close();
    }
  });
});
