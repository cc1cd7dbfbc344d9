/**
 * Helpers for the cross-process session tests (gateway-sessions*.test.ts): a real daemon started
 * with `hermes gateway start` in a temp root whose config points at an in-process fake model
 * server, clients that record every event they receive, and small waiting helpers. Every wait
 * has a deadline (gateway-process.ts `waitFor`).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { eventOf, type EventType, type WireEvent, type WireEventOf } from '@hermes/core/protocol';
import { type DiscoveryInfo } from '@hermes/tui-gateway';
import { connect, type DaemonClient } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';
import { aliveDiscovery, hermes, killDaemons, tempRoot, waitFor } from './gateway-process.js';

/** Writes `<root>/config.yaml`: the fake model plus extra YAML lines (e.g. `gateway:\n  drain_timeout: 1`). */
export function writeConfig(root: string, modelUrl: string, extra = ''): void {
  writeFileSync(
    join(root, 'config.yaml'),
    `model:\n  provider: custom\n  base_url: ${modelUrl}\n  default: fake\n${extra}`,
  );
}

/** Runs `hermes gateway start` in `root` and returns the new daemon's discovery record. */
export async function startGateway(root: string): Promise<DiscoveryInfo> {
  const r = await hermes(root, ['gateway', 'start']);
  if (r.code !== 0) throw new Error(`hermes gateway start failed (${r.code}):\n${r.stdout}${r.stderr}`);
  return waitFor(() => aliveDiscovery(root), 'the daemon discovery file');
}

/** A connected client that records every event it receives, in arrival order. */
export interface RecordingClient {
  c: DaemonClient;
  /** Every event received since connecting. */
  events: WireEvent[];
  /** Events of one session with seq > `after`. */
  of(sessionId: string, after?: number): WireEvent[];
  /** Waits until `pred` holds for some recorded event; returns it (typed by a type guard `pred`). */
  until<E extends WireEvent>(pred: (e: WireEvent) => e is E, what: string, timeoutMs?: number): Promise<E>;
  until(pred: (e: WireEvent) => boolean, what: string, timeoutMs?: number): Promise<WireEvent>;
  /** Waits until at least `n` recorded events match `pred`; returns them. */
  count<E extends WireEvent>(
    pred: (e: WireEvent) => e is E,
    n: number,
    what: string,
    timeoutMs?: number,
  ): Promise<E[]>;
  count(pred: (e: WireEvent) => boolean, n: number, what: string, timeoutMs?: number): Promise<WireEvent[]>;
  /** Largest seq received for the session (0 when none). */
  lastSeq(sessionId: string): number;
}

/** Connects a recording client (approvals capability on unless `approvals: false`). */
export async function recordingClient(
  root: string,
  name: string,
  approvals = true,
): Promise<RecordingClient> {
  const c = await connect({ root }, { name, capabilities: { approvals } });
  const events: WireEvent[] = [];
  c.onEvent((e) => events.push(e));
  const matching = (pred: (e: WireEvent) => boolean) => events.filter(pred);
  return {
    c,
    events,
    of: (sid, after = 0) => events.filter((e) => e.session_id === sid && e.seq > after),
    until: (pred: (e: WireEvent) => boolean, what: string, ms = 15_000) =>
      waitFor(() => events.find(pred), `${name}: ${what}`, ms),
    count: (pred: (e: WireEvent) => boolean, n: number, what: string, ms = 15_000) =>
      waitFor(
        () => {
          const m = matching(pred);
          return m.length >= n ? m : undefined;
        },
        `${name}: ${n} × ${what}`,
        ms,
      ),
    lastSeq: (sid) => events.reduce((m, e) => (e.session_id === sid ? Math.max(m, e.seq) : m), 0),
  };
}

/** Predicate: an event of `type` in session `sid` (optionally with seq > `after`), typed as one. */
export const is =
  <K extends EventType>(type: K, sid: string, after = 0) =>
  (e: WireEvent): e is WireEventOf<K> =>
    e.type === type && e.session_id === sid && e.seq > after;

/** Concatenated `message.delta` texts of a list of events. */
export function deltaText(events: WireEvent[]): string {
  return events
    .filter((e) => e.type === 'message.delta')
    .map((e) => eventOf(e, 'message.delta').payload.text)
    .join('');
}

/** Seqs of a list of events. */
export const seqs = (events: WireEvent[]): number[] => events.map((e) => e.seq);

/** True when `xs` is `from, from+1, …` without gaps or repeats. */
export function contiguous(xs: number[], from = xs[0] ?? 0): boolean {
  return xs.every((x, i) => x === from + i);
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A text of `n` distinct words, so any prefix/suffix mix-up shows in a comparison. */
export function words(n: number, tag = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
}

/** A daemon in a temp root with an in-process fake model and one recording client. */
export interface GatewayFixture {
  root: string;
  model: FakeModelServer;
  client: RecordingClient;
}

/**
 * Registers `beforeAll`/`afterAll` that start a fake model, write the root's files (`setup`,
 * default: `writeConfig` only), start the daemon and connect a recording client; and stop it
 * all afterwards. The returned object is filled in `beforeAll`.
 */
export function useGateway(
  prefix: string,
  setup: (root: string, modelUrl: string) => void = (root, url) => writeConfig(root, url),
): GatewayFixture {
  const fx = {} as GatewayFixture;
  beforeAll(async () => {
    fx.root = tempRoot(prefix);
    fx.model = await startFakeModelServer();
    setup(fx.root, fx.model.url);
    await startGateway(fx.root);
    fx.client = await recordingClient(fx.root, `${prefix}client`);
  });
  afterAll(async () => {
    fx.client?.c.socket.terminate();
    const violations = fx.root ? eventViolations(fx.root) : [];
    if (fx.root) killDaemons(fx.root);
    await fx.model?.close();
    if (fx.root) rmSync(fx.root, { recursive: true, force: true });
    failOnViolations(violations);
  });
  return fx;
}

/**
 * The `EVENT SCHEMA VIOLATION` lines the daemons of `root` wrote to their log: events whose
 * payload broke its schema (checked under tests, core/src/protocol/event-check.ts).
 */
export function eventViolations(root: string): string[] {
  let log: string;
  try {
    log = readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8');
  } catch {
    return [];
  }
  return [...new Set(log.split('\n').filter((l) => l.includes('EVENT SCHEMA VIOLATION')))];
}

/** Fails the test file when a daemon broke an event schema (the test itself may have passed). */
function failOnViolations(violations: string[]): void {
  if (violations.length > 0)
    throw new Error(`a daemon emitted events that break their schema:\n${violations.join('\n')}`);
}

/** Per-test daemon roots sharing one fake model (see `useDaemonRoots`). */
export interface DaemonRootsFixture {
  /** The fake model server, started in `beforeAll`. */
  readonly model: FakeModelServer;
  /** A fresh temp root whose config.yaml points at the model, plus `configExtra` YAML lines. */
  root(configExtra?: string): string;
  /** A recording client of the daemon serving `root`, closed after the test. */
  client(root: string, name: string): Promise<RecordingClient>;
}

/**
 * Registers hooks for tests that start, stop and kill daemons themselves: one fake model for the
 * file, and after each test every client made through the fixture is closed and every root's
 * daemons are killed and the root removed.
 */
export function useDaemonRoots(prefix: string): DaemonRootsFixture {
  let model: FakeModelServer | undefined;
  const roots: string[] = [];
  const open: RecordingClient[] = [];
  beforeAll(async () => {
    model = await startFakeModelServer();
  });
  afterEach(() => {
    for (const r of open.splice(0)) r.c.socket.terminate();
    const violations: string[] = [];
    for (const root of roots.splice(0)) {
      violations.push(...eventViolations(root));
      killDaemons(root);
      rmSync(root, { recursive: true, force: true });
    }
    failOnViolations(violations);
  });
  afterAll(async () => {
    await model?.close();
  });
  return {
    get model(): FakeModelServer {
      if (!model) throw new Error('useDaemonRoots: the model starts in beforeAll');
      return model;
    },
    root(configExtra = ''): string {
      const r = tempRoot(prefix);
      roots.push(r);
      writeConfig(r, this.model.url, configExtra);
      return r;
    },
    async client(root: string, name: string): Promise<RecordingClient> {
      const c = await recordingClient(root, name);
      open.push(c);
      return c;
    },
  };
}

/** A stored message as `hermes sessions show --json` prints it. */
export type ShownMessage = { role: string; content: string | null; status?: string | null };

/**
 * `hermes sessions show ID --json` in another process (read straight from state.db), without the
 * system message. Fails the test when the command fails.
 */
export async function showSession(
  root: string,
  id: string,
): Promise<{ session: { state: string }; messages: ShownMessage[] }> {
  const out = await hermes(root, ['sessions', 'show', id, '--json']);
  expect(out.code, out.stderr).toBe(0);
  const parsed = JSON.parse(out.stdout) as { session: { state: string }; messages: ShownMessage[] };
  return { ...parsed, messages: parsed.messages.filter((m) => m.role !== 'system') };
}
