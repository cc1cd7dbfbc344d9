/**
 * Media downloads of the Matrix adapter: the cap holds for a body without a Content-Length
 * (chunked), whatever the sender's `info.size` said; a body within the cap arrives whole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MatrixClient } from 'matrix-js-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadMedia } from './sdk.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A media server that sends `chunks` × 64 KiB chunked (no Content-Length); counts what it wrote. */
async function chunkedServer(chunks: number): Promise<{ url: string; written: () => number }> {
  let written = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    let n = 0;
    const next = (): void => {
      if (n++ >= chunks || res.destroyed) return void res.end();
      written += 65_536;
      if (res.write(Buffer.alloc(65_536))) setImmediate(next);
      else res.once('drain', next);
    };
    res.on('close', () => (n = chunks));
    next();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/media`, written: () => written };
}

const clientFor = (url: string) =>
  ({ mxcUrlToHttp: () => url, getAccessToken: () => 'token' }) as unknown as MatrixClient;

describe('downloadMedia', () => {
  it('stops a chunked body at the cap instead of reading it whole', async () => {
    const big = await chunkedServer(1_000); // 64 MB offered
    await expect(downloadMedia(clientFor(big.url), 'mxc://x/y', 100_000)).rejects.toThrow(
      /over the 100000 bytes limit/,
    );
    expect(big.written()).toBeLessThan(10_000_000);
    const small = await chunkedServer(2);
    expect((await downloadMedia(clientFor(small.url), 'mxc://x/y', 200_000)).length).toBe(131_072);
  });
});
