/**
 * A one-shot JSON-RPC call over the daemon's WebSocket with nothing but `node:net`: the
 * `hermes status --tmux` path, which must not load the `ws` package, the client or zod (it runs
 * every few seconds from tmux). Sends the upgrade with the bearer token, then each request as one
 * masked text frame, and resolves with the result of the last one. Frames from the daemon are
 * unmasked text (opcode 1) of any length; other frames (ping, close) are skipped or end the call.
 */
import { connect } from 'node:net';

/**
 * `n` random bytes from Math.random: the frame masks and the upgrade key only need to vary
 * (RFC 6455 masking guards proxies, not secrets; this is a loopback socket), and not loading
 * `node:crypto` saves a few ms of every tmux refresh.
 */
function looseRandomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(Math.random() * 256);
  return b;
}

/** A request of the call. */
export interface MiniRequest {
  method: string;
  params?: unknown;
}

/** Encodes one client text frame (masked, as a client must). */
export function clientFrame(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const n = body.length;
  const head = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x81;
  if (n < 126) head[1] = 0x80 | n;
  else if (n < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  const mask = looseRandomBytes(4);
  for (let i = 0; i < n; i++) body[i]! ^= mask[i & 3]!;
  return Buffer.concat([head, mask, body]);
}

/**
 * Reads the complete server frames at the start of `buf`.
 * @returns the frames' opcodes and payloads, and the bytes left over (an incomplete frame).
 */
export function readFrames(buf: Buffer): { frames: Array<{ op: number; data: Buffer }>; rest: Buffer } {
  const frames: Array<{ op: number; data: Buffer }> = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const op = buf[at]! & 0x0f;
    let len = buf[at + 1]! & 0x7f;
    let off = at + 2;
    if (len === 126) {
      if (buf.length - at < 4) break;
      len = buf.readUInt16BE(at + 2);
      off = at + 4;
    } else if (len === 127) {
      if (buf.length - at < 10) break;
      len = Number(buf.readBigUInt64BE(at + 2));
      off = at + 10;
    }
    if (buf.length < off + len) break;
    frames.push({ op, data: buf.subarray(off, off + len) });
    at = off + len;
  }
  return { frames, rest: buf.subarray(at) };
}

/**
 * Calls `requests` in order on one connection to `host:port` and resolves with the last result.
 * @throws Error on a refused upgrade, a JSON-RPC error, a closed socket or after `timeoutMs`.
 */
export function miniCall(
  o: { host: string; port: number; token: string; timeoutMs?: number },
  requests: MiniRequest[],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(o.port, o.host);
    const timer = setTimeout(() => fail(new Error('the daemon did not answer in time')), o.timeoutMs ?? 2000);
    let upgraded = false;
    let buf: Buffer = Buffer.alloc(0);
    let next = 0;
    const done = (err: Error | undefined, value?: unknown): void => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    const fail = (err: Error): void => done(err);
    const send = (): void => {
      const r = requests[next]!;
      socket.write(
        clientFrame(
          JSON.stringify({ jsonrpc: '2.0', id: next + 1, method: r.method, params: r.params ?? {} }),
        ),
      );
    };
    socket.on('error', fail);
    socket.on('close', () => done(new Error('the daemon closed the connection')));
    socket.on('connect', () => {
      socket.write(
        `GET / HTTP/1.1\r\nHost: ${o.host}:${o.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${looseRandomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
          `Authorization: Bearer ${o.token}\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = buf.subarray(0, buf.indexOf('\r\n')).toString('latin1');
        if (!/^HTTP\/1\.1 101/.test(status)) return fail(new Error(`the daemon refused: ${status}`));
        upgraded = true;
        buf = buf.subarray(end + 4);
        send();
      }
      const { frames, rest } = readFrames(buf);
      buf = rest;
      for (const f of frames) {
        if (f.op === 8) return fail(new Error('the daemon closed the connection'));
        if (f.op !== 1) continue;
        const msg = JSON.parse(f.data.toString('utf8')) as {
          id?: number;
          result?: unknown;
          error?: { message: string };
        };
        if (msg.id !== next + 1) continue; // an event
        if (msg.error) return fail(new Error(msg.error.message));
        next++;
        if (next === requests.length) return done(undefined, msg.result);
        send();
      }
    });
  });
}
