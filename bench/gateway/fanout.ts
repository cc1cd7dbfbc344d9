/**
 * Fan-out of one streamed reply, measured beside a bare `ws` broadcast of the
 * same frames in the same run.
 *
 * Method:
 * - The daemon is `startDaemon` in this process with the real session layer (SessionRegistry +
 *   session handlers). The session's agent is the real `Agent` (it persists the user message, the
 *   streaming checkpoint every 250 ms and the final reply in state.db); only its model client is
 *   replaced by `StreamingModel`, which calls `onText` DELTAS times. So each delta takes the whole
 *   hot path: agent → LiveSession.emit (seq, in-flight text, replay ring) → every attached
 *   connection's outbound queue → `ws.send`.
 * - The bare baseline is a `ws` WebSocketServer in this process that serializes the same event
 *   frame (`{"jsonrpc":"2.0","method":"event","params":{type,session_id,seq,ts,payload}}`) once per
 *   delta and `send`s it to every socket.
 * - The clients are real WebSockets in one child process (`fanout-clients.ts`), so parsing
 *   N × 10,000 frames does not share the daemon's event loop. Both sides emit with the same pacing.
 * - Each delta's text carries its emit time (`process.hrtime`, CLOCK_MONOTONIC, one clock for all
 *   processes), so the child measures per-delta latency directly.
 * - `burst` pacing (10 deltas per event-loop turn, as fast as it goes) gives throughput and the
 *   cost ratio: time from the first delta's emit until the last client has the last delta,
 *   gateway over bare. `paced` pacing (5 deltas per 1 ms timer, ≈ 4–5k deltas/s, below saturation)
 *   gives per-delta latency p50/p99 without queueing from overload.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ChatRequest, ChatResult, ModelClient, StreamHandlers } from '@hermes/core/model';
import { startDaemon, type DaemonHandle } from '@hermes/tui-gateway';
import { registerSessionHandlers } from '@hermes/tui-gateway/sessions/session-handlers';
import { SessionRegistry } from '@hermes/tui-gateway/sessions/session-registry';

/** Deltas in the streamed reply. */
export const DELTAS = 10_000;
/** Measured runs per client count and pacing (after one warm-up run). */
const RUNS = 5;
const CLIENTS_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'fanout-clients.ts');

export type Pace = 'burst' | 'paced';

/** One run as the clients saw it. */
export interface RunStats {
  /** First emit → last delta at the last client, µs. */
  elapsedUs: number;
  /** CPU time of the sending process while the deltas were emitted and sent, µs. */
  cpuUs: number;
  p50Us: number;
  p99Us: number;
}

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** When the stream started, and the CPU time this process spent while it was emitted. */
interface Emitted {
  firstUs: number;
  cpuUs: number;
}

/**
 * Emits `n` delta texts `<i>:<emit µs>;` with the given pacing. `cpuUs` is this process's CPU
 * time (user + system) from the first delta until the last batch was emitted, which includes the
 * fan-out: `ws.send` writes to the socket synchronously while it keeps up.
 */
async function emitDeltas(n: number, pace: Pace, emit: (text: string) => void): Promise<Emitted> {
  const batch = pace === 'burst' ? 10 : 5;
  const cpu0 = process.cpuUsage();
  const firstUs = nowUs();
  for (let i = 0; i < n;) {
    for (let k = 0; k < batch && i < n; k++, i++) emit(`${i}:${nowUs()};`);
    if (i < n) {
      if (pace === 'burst') await nextTurn();
      else await sleep(1);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  return { firstUs, cpuUs: cpu.user + cpu.system };
}

/** A model client whose every call streams `DELTAS` deltas with the current pacing. */
class StreamingModel implements ModelClient {
  readonly defaultModel = 'bench';
  pace: Pace = 'burst';
  last: Emitted = { firstUs: 0, cpuUs: 0 };

  async stream(_req: ChatRequest, handlers?: StreamHandlers): Promise<ChatResult> {
    const parts: string[] = [];
    this.last = await emitDeltas(DELTAS, this.pace, (t) => {
      parts.push(t);
      handlers?.onText?.(t);
    });
    const usage = { prompt_tokens: 0, completion_tokens: DELTAS, total_tokens: DELTAS };
    return {
      text: parts.join(''),
      reasoning: '',
      toolCalls: [],
      finishReason: 'stop',
      usage,
      model: 'bench',
      provider: 'bench',
    };
  }
}

/** The client process, driven by request/answer messages. */
class Clients {
  private readonly child: ChildProcess;
  private waiters: Array<(msg: Record<string, unknown>) => void> = [];

  constructor() {
    this.child = fork(CLIENTS_SCRIPT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m) => this.waiters.shift()?.(m as Record<string, unknown>));
  }

  /** The child's next message. */
  next<T>(what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fanout clients: no ${what} in 120 s`)), 120_000);
      this.waiters.push((m) => {
        clearTimeout(timer);
        resolve(m as T);
      });
    });
  }

  /** Sends a command and waits for its answer. */
  ask<T>(cmd: { cmd: string; [key: string]: unknown }): Promise<T> {
    const answer = this.next<T>(`answer to ${cmd.cmd}`);
    this.child.send(cmd);
    return answer;
  }

  /** Arms the counters, then runs `go` and waits for the clients' report. */
  async run(go: () => Promise<Emitted>): Promise<RunStats> {
    await this.ask({ cmd: 'expect', deltas: DELTAS });
    const report = this.next<{ p50Us: number; p99Us: number; lastUs: number }>('report');
    const sent = await go();
    const r = await report;
    return { elapsedUs: r.lastUs - sent.firstUs, cpuUs: sent.cpuUs, p50Us: r.p50Us, p99Us: r.p99Us };
  }

  close(): void {
    this.child.send({ cmd: 'close' });
  }
}

/** A daemon in this process with one session whose agent streams through `StreamingModel`. */
async function startBenchDaemon(): Promise<{
  daemon: DaemonHandle;
  model: StreamingModel;
  sessionId: string;
  turn: () => Promise<Emitted>;
  stop: () => Promise<void>;
}> {
  const root = mkdtempSync(join(tmpdir(), 'hermes-bench-fanout-'));
  writeFileSync(
    join(root, 'config.yaml'),
    'model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: bench\n',
  );
  const model = new StreamingModel();
  let registry!: SessionRegistry;
  const daemon = await startDaemon({
    root,
    version: 'bench',
    validateResults: false,
    systemdUnitFile: null,
    registerHandlers: (rpc, ctx) => {
      registry = new SessionRegistry({ root, epoch: ctx.epoch, modelClientFactory: () => model });
      registerSessionHandlers(rpc, registry);
    },
    drain: async ({ timeoutMs }) => ({ clean: await registry.drain(timeoutMs) }),
  });
  const live = registry.create('default', { cwd: root, title: 'fan-out' });
  return {
    daemon,
    model,
    sessionId: live.id,
    turn: async () => {
      live.submit('stream');
      await live.idle();
      return model.last;
    },
    stop: async () => {
      await daemon.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A bare `ws` server broadcasting the same event frames. */
async function startBare(): Promise<{ port: number; sockets: Set<WebSocket>; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
  });
  const port = (wss.address() as { port: number }).port;
  return { port, sockets, close: () => new Promise((r) => wss.close(() => r())) };
}

/** Results of one client count: per pacing, the gateway's and the bare server's runs. */
export interface FanoutResult {
  gateway: Record<Pace, RunStats[]>;
  bare: Record<Pace, RunStats[]>;
}

/**
 * Runs gateway and bare fan-out to `n` clients, interleaved run by run, for each pacing.
 * @param opts `paces` (default both) and `runs` measured per pacing (default 5, after a warm-up).
 */
export async function measureFanout(
  n: number,
  opts: { paces?: Pace[]; runs?: number } = {},
): Promise<FanoutResult> {
  const gw = await startBenchDaemon();
  const bare = await startBare();
  const gwClients = new Clients();
  const bareClients = new Clients();
  const out: FanoutResult = { gateway: { burst: [], paced: [] }, bare: { burst: [], paced: [] } };
  try {
    await gwClients.ask({
      cmd: 'connect',
      kind: 'gateway',
      port: gw.daemon.port,
      token: gw.daemon.token,
      sessionId: gw.sessionId,
      clients: n,
    });
    await bareClients.ask({ cmd: 'connect', kind: 'bare', port: bare.port, clients: n });
    let seq = 0;
    const bareTurn = (pace: Pace) => () =>
      emitDeltas(DELTAS, pace, (text) => {
        const frame = JSON.stringify({
          jsonrpc: '2.0',
          method: 'event',
          params: {
            type: 'message.delta',
            session_id: 'bare',
            seq: ++seq,
            ts: Date.now(),
            payload: { text },
          },
        });
        for (const ws of bare.sockets) ws.send(frame);
      });
    for (const pace of opts.paces ?? (['burst', 'paced'] as const)) {
      for (let run = 0; run <= (opts.runs ?? RUNS); run++) {
        gw.model.pace = pace;
        const g = await gwClients.run(gw.turn);
        const b = await bareClients.run(bareTurn(pace));
        if (run === 0) continue; // warm-up
        out.gateway[pace].push(g);
        out.bare[pace].push(b);
      }
    }
  } finally {
    gwClients.close();
    bareClients.close();
    await bare.close();
    await gw.stop();
  }
  return out;
}
