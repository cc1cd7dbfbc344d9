/**
 * Cheap local denial of service against the daemon's listener: refused connections cost the log a
 * bounded number of lines (and the log rotates by size), and half-open upgrades are bounded in
 * number and time while a real client still gets in.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createLogger, type Logger } from '../lifecycle/logger.js';
import { startGatewayServer, type GatewayServer } from './server.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-dos-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'dos-test-token-0123456789';
const limits = { maxQueuedFrames: 100, maxQueuedBytes: 1 << 20, maxBufferedBytes: 1 << 20 } as never;

async function server(log: Logger, upgradeLimits = {}): Promise<GatewayServer> {
  return startGatewayServer({
    token: TOKEN,
    hardMaxPayload: 1 << 20,
    pingIntervalMs: 60_000,
    idleTimeoutMs: 120_000,
    limits,
    log,
    onConnection: () => {},
    accepting: () => true,
    upgradeLimits,
  });
}

/** One upgrade with a wrong token; resolves when the socket closed. */
function refusedAttempt(port: number): Promise<void> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' }, () => {
      s.write(
        'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          'Authorization: Bearer wrong-token-000000\r\n\r\n',
      );
    });
    s.on('error', () => {});
    s.on('data', () => {});
    s.on('close', () => resolve());
  });
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const openFds = (): number => readdirSync('/proc/self/fd').length;

describe('refused connections and the log', () => {
  let srv: GatewayServer | undefined;
  let log: Logger | undefined;
  afterEach(async () => {
    await srv?.close(1001, 'test over', 100);
    await log?.close();
  });

  // Real sockets show that every refusal goes through the rate-limited log; the scale (20,000
  // refusals, many windows, many peers) is covered in process by refusal-log.test.ts.
  it('2,000 refused attempts grow the log by a few KiB, with every attempt counted', async () => {
    const attempts = 2_000;
    const file = join(dir, 'refused.log');
    log = createLogger({ file });
    srv = await server(log);
    const started = Date.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < attempts) {
        next++;
        await refusedAttempt(srv!.port);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const elapsed = Date.now() - started;
    await srv.close(1001, 'test over', 100); // flushes the window's summary
    srv = undefined;
    const text = readFileSync(file, 'utf8');
    const size = statSync(file).size;
    console.log(`${attempts} refused attempts in ${elapsed} ms: log ${size} bytes`);
    // one line per attempt would be ~200 KB; the burst and summaries of a window fit in 8 KiB
    expect(size).toBeLessThan(8 * 1024);
    expect(text).toMatch(/refused connection from 127\.0\.0\.1 \(401 wrong bearer token\)/);
    const more = [...text.matchAll(/(\d+) more refused connections from 127\.0\.0\.1 \(401/g)].map((m) =>
      Number(m[1]),
    );
    const logged = text.match(/refused connection from 127\.0\.0\.1 \(401/g)?.length ?? 0;
    expect(more.reduce((a, b) => a + b, 0) + logged).toBe(attempts);
  }, 40_000);

  it('rotates the log by size, keeping 3 older files, each 0600', async () => {
    const file = join(dir, 'rotate.log');
    log = createLogger({ file, maxFileBytes: 4096, keepFiles: 3 });
    for (let i = 0; i < 400; i++) log.info(`line ${i} ${'x'.repeat(60)}`);
    await log.close();
    log = undefined;
    const names = readdirSync(dir)
      .filter((n) => n.startsWith('rotate.log'))
      .sort();
    expect(names).toEqual(['rotate.log', 'rotate.log.1', 'rotate.log.2', 'rotate.log.3']);
    for (const n of names) {
      expect(statSync(join(dir, n)).size).toBeLessThanOrEqual(4096);
      expect(statSync(join(dir, n)).mode & 0o777).toBe(0o600);
    }
    expect(existsSync(`${file}.4`)).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('line 399 ');
    expect(readFileSync(`${file}.1`, 'utf8')).not.toContain('line 399 ');
  });
});

describe('half-open upgrades', () => {
  it('200 from one peer: the cap refuses the excess, fds come back within the header timeout, a real client connects', async () => {
    const log = createLogger({ file: join(dir, 'halfopen.log') });
    const srv = await server(log, { headerTimeoutMs: 1500, perPeer: 16, total: 64 });
    const before = openFds();
    const sockets: Socket[] = [];
    let refused503 = 0;
    await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<void>((resolve) => {
            // another loopback address: the attacker is one peer, the real client another
            const s = connect({ port: srv.port, host: '127.0.0.1', localAddress: '127.0.0.2' }, () => {
              s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n'); // never finished
              resolve();
            });
            s.on('data', (d) => {
              if (d.toString().startsWith('HTTP/1.1 503')) refused503++;
            });
            s.on('error', () => resolve());
            s.on('close', () => s.destroy());
            sockets.push(s);
          }),
      ),
    );
    const opened = Date.now();
    await waitFor(() => refused503 >= 200 - 16, 3000, 'the excess to be refused with 503');
    expect(refused503).toBe(184);
    // a real client from another peer gets in meanwhile
    const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    expect(srv.connections()).toHaveLength(1);
    ws.close();
    // the 16 held ones are closed by the header timeout
    await waitFor(() => sockets.every((s) => s.destroyed), 4000, 'the half-open sockets to be closed');
    const releasedAfter = Date.now() - opened;
    await waitFor(() => openFds() <= before + 2, 2000, 'the descriptors to be released');
    console.log(`half-open: ${refused503} refused with 503, rest closed ${releasedAfter} ms after opening`);
    expect(releasedAfter).toBeLessThan(1500 + 1500);
    await srv.close(1001, 'test over', 100);
    await log.close();
  }, 20_000);
});
