/**
 * The receiving side of the fan-out benchmark, in its own process so that parsing 16 × 10,000
 * frames does not run on the daemon's event loop. Driven over IPC by `fanout.ts`:
 *
 * - `{cmd: 'connect', kind, port, token, sessionId, clients}`: opens `clients` WebSockets; for
 *   `kind: 'gateway'` each sends `initialize` and `session.attach`; answers `{ready: true}`.
 * - `{cmd: 'expect', deltas}`: resets the counters; answers once every client has received
 *   `deltas` delta segments with `{p50Us, p99Us, lastUs, clients}`.
 * - `{cmd: 'close'}`: closes the sockets and exits.
 *
 * Each delta's text is `<index>:<emit time µs>;` (merged deltas carry several segments). Emit
 * and receive times are `process.hrtime` (CLOCK_MONOTONIC), one clock for every process of the
 * machine, so `receive − emit` is the per-delta latency across processes.
 */
import { WebSocket } from 'ws';

interface ConnectCmd {
  cmd: 'connect';
  kind: 'gateway' | 'bare';
  port: number;
  token?: string;
  sessionId?: string;
  clients: number;
}
type Cmd = ConnectCmd | { cmd: 'expect'; deltas: number } | { cmd: 'close' };

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
const send = (msg: object): void => void process.send!(msg);

let sockets: WebSocket[] = [];
let received: number[] = [];
let latencies = new Float64Array(0);
let filled = 0;
let expected = 0;
let lastUs = 0;
let waiting = false;

const DELTA = '"type":"message.delta"';
const TEXT = '"text":"';

function onFrame(client: number, data: string): void {
  if (!waiting || !data.includes(DELTA)) return;
  const at = nowUs();
  const start = data.indexOf(TEXT) + TEXT.length;
  const text = data.slice(start, data.indexOf('"', start));
  for (const seg of text.split(';')) {
    const colon = seg.indexOf(':');
    if (colon < 0) continue;
    latencies[filled++] = at - Number(seg.slice(colon + 1));
    received[client]!++;
  }
  if (at > lastUs) lastUs = at;
  if (received.every((n) => n >= expected)) report();
}

function report(): void {
  waiting = false;
  const l = latencies.subarray(0, filled).sort();
  const pick = (p: number): number => l[Math.min(l.length - 1, Math.ceil((p / 100) * l.length) - 1)]!;
  send({ p50Us: pick(50), p99Us: pick(99), lastUs, clients: sockets.length });
}

function open(c: ConnectCmd, index: number): Promise<WebSocket> {
  const headers: Record<string, string> = c.token ? { Authorization: `Bearer ${c.token}` } : {};
  const ws = new WebSocket(`ws://127.0.0.1:${c.port}/`, { headers, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      if (c.kind === 'bare') return resolve(ws);
      // initialize (id 1) then session.attach (id 2); resolve on the attach answer
      ws.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { client: { name: `bench-${index}`, version: '0' }, capabilities: { approvals: false } },
        }),
      );
      const onMessage = (raw: Buffer): void => {
        const msg = JSON.parse(raw.toString()) as { id?: number; error?: unknown };
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        if (msg.id === 1)
          ws.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 2,
              method: 'session.attach',
              params: { session_id: c.sessionId, history_limit: 1 },
            }),
          );
        if (msg.id === 2) {
          ws.off('message', onMessage);
          resolve(ws);
        }
      };
      ws.on('message', onMessage);
    });
  });
}

process.on('message', (cmd: Cmd) => {
  void (async () => {
    if (cmd.cmd === 'connect') {
      sockets = await Promise.all(Array.from({ length: cmd.clients }, (_, i) => open(cmd, i)));
      sockets.forEach((ws, i) => ws.on('message', (d: Buffer) => onFrame(i, d.toString())));
      send({ ready: true });
    } else if (cmd.cmd === 'expect') {
      expected = cmd.deltas;
      received = sockets.map(() => 0);
      latencies = new Float64Array(cmd.deltas * sockets.length + 16);
      filled = 0;
      lastUs = 0;
      waiting = true;
      send({ expecting: true });
    } else {
      for (const ws of sockets) ws.close();
      process.exit(0);
    }
  })().catch((err: unknown) => {
    process.stderr.write(`fanout-clients: ${String(err)}\n`);
    process.exit(1);
  });
});
