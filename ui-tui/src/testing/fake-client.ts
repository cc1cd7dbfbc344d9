/**
 * An in-memory `GatewayClientLike` for App and controller tests: scripted method handlers, a log
 * of calls, and helpers to push events and server requests as the daemon would.
 */
import type {
  MethodName,
  MethodParams,
  MethodResult,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  WireEvent,
} from '@hermes/core/protocol';
import { NotConnectedError, RpcCallError } from '../client/errors.js';
import type {
  AttachResult,
  ClientEventName,
  ClientEvents,
  ConnectionState,
  GatewayClientLike,
  InitializeResult,
  ServerRequestHandler,
} from '../client/types.js';
import { sessionInfo, snapshotResult } from './fixtures.js';

type Handler = (params: Record<string, unknown>) => unknown;

/** A fake gateway client. */
export class FakeClient implements GatewayClientLike {
  state: ConnectionState = 'disconnected';
  server: InitializeResult | null = null;
  readonly instanceId = 'i-me';
  profile = 'default';
  readonly calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  readonly handlers = new Map<string, Handler>();
  private readonly listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  private handler: ServerRequestHandler | null = null;
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

  async connect(): Promise<InitializeResult> {
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
  }

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    const p = (params ?? {}) as Record<string, unknown>;
    this.calls.push({ method, params: p });
    if (this.state !== 'connected') throw new NotConnectedError();
    const h = this.handlers.get(method);
    if (!h) throw new RpcCallError(method, -32601, `no handler for ${method}`);
    return (await h(p)) as MethodResult<M>;
  }

  async attach(sessionId: string): Promise<AttachResult> {
    const result = await this.call('session.attach', { session_id: sessionId });
    this.emit('attach', result, { sessionId, reason: 'attach' });
    return result;
  }

  async detach(sessionId: string): Promise<void> {
    await this.call('session.detach', { session_id: sessionId });
  }

  async switchProfile(profile: string): Promise<InitializeResult> {
    this.profile = profile;
    return this.connect();
  }

  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (...a: unknown[]) => void);
    return () => set.delete(listener as (...a: unknown[]) => void);
  }

  setServerRequestHandler(handler: ServerRequestHandler | null): void {
    this.handler = handler;
  }

  close(): void {
    this.setState('disconnected');
  }

  /** Emits a client event to listeners. */
  emit(event: ClientEventName, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }

  /** Changes the connection state. */
  setState(state: ConnectionState): void {
    this.state = state;
    this.emit('state', state, {});
  }

  /** Pushes a live event. */
  event(ev: WireEvent): void {
    this.emit('event', ev);
  }

  /** Sends a server request (its `kind` filled in from the method); resolves with the handler's answer. */
  request<M extends ServerRequestMethod>(
    method: M,
    params: Omit<ServerRequestParams<M>, 'kind'>,
  ): Promise<ServerRequestResult<M>> {
    if (!this.handler) throw new Error('no server request handler');
    const kind = method === 'approval.request' ? 'approval' : 'clarify';
    const full = { ...params, kind } as ServerRequestParams<M>;
    return this.handler(method, full, { rpcId: `srq-${++this.srq}` });
  }
}
