import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelIds, normalizeBaseUrl, probeLocalServers, probeServer } from './probe.js';

let server: Server;
let base: string;
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] }));
    } else if (req.url === '/slow/v1/models') {
      hanging.add(res); // never answers
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A loopback port with nothing listening (bound, then closed). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('probeServer', () => {
  it('lists the models of a server that answers GET /models', async () => {
    expect(await probeServer(`${base}/v1`)).toEqual(['qwen3:8b', 'llama3.2']);
    expect(await probeServer(`${base}/v1/`)).toEqual(['qwen3:8b', 'llama3.2']);
  });

  it('says why when nothing answers, the server times out, or answers an error', async () => {
    const refused = await probeServer(`http://127.0.0.1:${await deadPort()}/v1`);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain('ECONNREFUSED');
    const slow = await probeServer(`${base}/slow/v1`, 150);
    expect((slow as Error).message).toContain('no answer within 150 ms');
    const missing = await probeServer(`${base}/nothing`);
    expect((missing as Error).message).toContain('HTTP 404');
  });
});

describe('probeLocalServers', () => {
  it('offers only the servers that answered, in list order, with their models', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}/v1`;
    const found = await probeLocalServers(
      [
        { name: 'Ollama', baseUrl: dead },
        { name: 'llama.cpp', baseUrl: `${base}/v1` },
        { name: 'vLLM', baseUrl: `${base}/slow/v1` },
      ],
      200,
    );
    expect(found).toEqual([{ name: 'llama.cpp', baseUrl: `${base}/v1`, models: ['qwen3:8b', 'llama3.2'] }]);
  });
});

describe('helpers', () => {
  it('normalizes typed URLs and reads both model list shapes', () => {
    expect(normalizeBaseUrl(' 127.0.0.1:8080/v1/ ')).toBe('http://127.0.0.1:8080/v1');
    expect(normalizeBaseUrl('https://x.example/v1')).toBe('https://x.example/v1');
    expect(modelIds({ data: [{ id: 'a' }, { id: 'a' }, { nope: 1 }] })).toEqual(['a']);
    expect(modelIds({ models: [{ name: 'llama3' }] })).toEqual(['llama3']);
    expect(modelIds('junk')).toEqual([]);
  });
});
