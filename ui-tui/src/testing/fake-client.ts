/**
 * An in-memory `DaemonClientLike` for App and controller tests: scripted method handlers, a log
 * of calls, and helpers to push events and server requests as the daemon would.
 */
import type {
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  WireEvent,
} from '@hermes/core/protocol';
import { DropServerRequest, NO_REPLY, NotConnectedError, RpcCallError } from '@hermes/client';
import type { ClientEventName, DaemonClientLike, ServerRequestHandler } from '@hermes/client';
import { sessionInfo, snapshotResult } from './fixtures.js';

type Handler = (params: Record<string, unknown>) => unknown;

/** A fake gateway client. */
export class FakeClient implements DaemonClientLike {
  state: DaemonClientLike['state'] = 'disconnected';
  server: DaemonClientLike['server'] = null;
  readonly instanceId = 'i-me';
  profile = 'default';
  readonly calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  readonly handlers = new Map<string, Handler>();
  private readonly listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  private readonly srqHandlers = new Map<string, ServerRequestHandler<ServerRequestMethod>>();
  private srq = 0;

  constructor() {
    this.handlers.set('session.list', () => ({ sessions: [sessionInfo()] }));
    this.handlers.set('session.create', () => ({ session: sessionInfo({ id: 'new-1', title: null }) }));
    this.handlers.set('session.attach', (p) =>
      snapshotResult({ session: sessionInfo({ id: String(p.session_id) }) }),
    );
    this.handlers.set('session.detach', () => ({ ok: true }));
    this.handlers.set('prompt.submit', () => ({ prompt_id: 'p1', status: 'started' }));
    this.handlers.set('session.interrupt', () => ({ interrupted: true }));
    this.handlers.set('slash.exec', (p) => ({ output: `daemon ran ${String(p.command)}`, handled: true }));
  }

  /** Calls made to a method. */
  callsTo(method: string): Array<Record<string, unknown>> {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }

  connect: DaemonClientLike['connect'] = async () => {
    this.setState('connected');
    this.server = {
      server: { name: 'fake', version: '0' },
      epoch: 'e1',
      connection_id: 'c-me',
      profile: this.profile,
      profiles: ['default', 'work'],
    };
    this.emit('connected', this.server, { reconnect: false, epochChanged: false });
    return this.server;
  };

  request: DaemonClientLike['request'] = async (method, ...args) => {
    const p = (args[0] ?? {}) as Record<string, unknown>;
    this.calls.push({ method, params: p });
    if (this.state !== 'connected') throw new NotConnectedError();
    const h = this.handlers.get(method);
    if (!h) throw new RpcCallError(method, -32601, `no handler for ${method}`);
    // the scripted handler stands in for the daemon: its answer is taken as the method's result
    return (await h(p)) as never;
  };

  attach: DaemonClientLike['attach'] = async (sessionId) => {
    const result = await this.request('session.attach', { session_id: sessionId });
    this.emit('attach', result, { sessionId, reason: 'attach' });
    return result;
  };

  detach: DaemonClientLike['detach'] = async (sessionId) => {
    await this.request('session.detach', { session_id: sessionId });
  };

  switchProfile: DaemonClientLike['switchProfile'] = async (profile) => {
    this.profile = profile;
    return this.connect();
  };

  on: DaemonClientLike['on'] = (event, listener) => {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (...a: unknown[]) => void);
    return () => set.delete(listener as (...a: unknown[]) => void);
  };

  onServerRequest: DaemonClientLike['onServerRequest'] = (method, handler) => {
    const h = handler as unknown as ServerRequestHandler<ServerRequestMethod>;
    this.srqHandlers.set(method, h);
    return () => {
      if (this.srqHandlers.get(method) === h) this.srqHandlers.delete(method);
    };
  };

  close: DaemonClientLike['close'] = async () => {
    this.setState('disconnected');
  };

  /** Emits a client event to listeners. */
  emit(event: ClientEventName, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }

  /** Changes the connection state. */
  setState(state: DaemonClientLike['state']): void {
    this.state = state;
    this.emit('state', state, {});
  }

  /** Pushes a live event. */
  event(ev: WireEvent): void {
    this.emit('event', ev);
  }

  /**
   * Sends a server request (its `kind` filled in from the method); resolves with the handler's
   * answer, rejects with `DropServerRequest` when it sends none.
   */
  async serverRequest<M extends ServerRequestMethod>(
    method: M,
    params: Omit<ServerRequestParams<M>, 'kind'>,
  ): Promise<ServerRequestResult<M>> {
    const handler = this.srqHandlers.get(method) as ServerRequestHandler<M> | undefined;
    if (!handler) throw new Error(`no handler for ${method}`);
    const kind = method === 'approval.request' ? 'approval' : 'clarify';
    const full = { ...params, kind } as ServerRequestParams<M>;
    const answer = await handler(full, { rpcId: `srq-${++this.srq}` });
    if (answer === NO_REPLY) throw new DropServerRequest();
    return answer;
  }
}
