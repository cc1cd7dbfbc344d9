import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { clientFrame, miniCall, readFrames } from './mini-ws.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A `ws` server that checks the bearer token and answers every request with its method. */
async function server(bigResult = false): Promise<number> {
  const http = createServer();
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    if (req.headers.authorization !== 'Bearer tok') {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { id: number; method: string; params: unknown };
        ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'x' } })); // skipped
        ws.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: { method: m.method, params: m.params, pad: bigResult ? 'x'.repeat(70_000) : '' },
          }),
        );
      });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      wss.close();
      http.close(() => r());
      http.closeAllConnections();
    });
  return (http.address() as AddressInfo).port;
}

describe('mini-ws', () => {
  it('reads server frames of short, 16-bit and 64-bit lengths; an incomplete frame stays', () => {
    for (const n of [5, 300, 70_000]) {
      // a server frame is the client frame without the mask bit and key, its payload unmasked
      const masked = clientFrame('a'.repeat(n));
      const headLen = n < 126 ? 2 : n < 65536 ? 4 : 10;
      const head = Buffer.from(masked.subarray(0, headLen));
      head[1] = head[1]! & 0x7f;
      const frame = Buffer.concat([head, Buffer.from('a'.repeat(n))]);
      const { frames, rest } = readFrames(Buffer.concat([frame, frame.subarray(0, 3)]));
      expect(frames.map((f) => [f.op, f.data.length])).toEqual([[1, n]]);
      expect(rest.length).toBe(3);
      // the mask key really masks the payload
      expect(masked.subarray(headLen + 4).equals(Buffer.from('a'.repeat(n)))).toBe(false);
    }
  });

  it('makes the calls in order and resolves with the last result, skipping events', async () => {
    const port = await server(true);
    const r = (await miniCall({ host: '127.0.0.1', port, token: 'tok' }, [
      { method: 'initialize', params: { a: 1 } },
      { method: 'status.subscribe', params: { watch: false } },
    ])) as { method: string; params: unknown };
    expect(r.method).toBe('status.subscribe');
    expect(r.params).toEqual({ watch: false });
  });

  it('a refused upgrade rejects', async () => {
    const port = await server();
    await expect(miniCall({ host: '127.0.0.1', port, token: 'bad' }, [{ method: 'x' }])).rejects.toThrow(
      /401/,
    );
  });
});
