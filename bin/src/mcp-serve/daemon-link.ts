/**
 * The MCP server's one connection to the daemon, in the selected profile: opened on the first
 * tool call (starting the daemon when none runs, as `hermes tui` does) and opened again on the
 * next call after it dropped (a restarted daemon). It declares the approvals capability so that
 * it hears of approvals asked in the sessions it watches, and never answers them by itself:
 * every `approval.request` gets no reply (NO_REPLY); only an explicit `approval_answer` call
 * answers, with `approval.answer`.
 *
 * Sessions are attached with a count: several tool calls may watch one session at once, and the
 * last one to finish detaches it.
 */
import { connect, NO_REPLY, type DaemonClient } from '@hermes/client';
import type { ServerRequestParams, WireEvent } from '@hermes/core/protocol';

/** An approval the daemon asked through this connection (the `approval.request` params). */
export type AskedApproval = ServerRequestParams<'approval.request'>;

/** How the link reaches the daemon. */
export interface DaemonLinkOptions {
  /** The Hermes root (its discovery file names the daemon). */
  root: string;
  /** Profile of every request: the connection's profile, never another. */
  profile: string;
  /** Version sent in `initialize`. */
  version: string;
  /** Starts the daemon and resolves once it answers (`hermes gateway start`'s starter). */
  start: () => Promise<void>;
  /** One line for stderr (never stdout: it carries the MCP protocol). */
  log: (line: string) => void;
  /** Budget of the socket and `initialize`, ms (default 5,000). */
  connectTimeoutMs?: number;
}

/** The lazily opened, re-opened connection of `hermes mcp serve`. */
export class DaemonLink {
  private current: Promise<DaemonClient> | undefined;
  private readonly eventListeners = new Set<(ev: WireEvent) => void>();
  private readonly approvalListeners = new Set<(p: AskedApproval) => void>();
  private readonly attached = new Map<string, number>();
  private closing = false;

  constructor(private readonly opts: DaemonLinkOptions) {}

  /**
   * The connected client, connecting (and starting the daemon) when there is none.
   * @throws DaemonConnectError when the daemon cannot be started or reached; RpcCallError when
   *   `initialize` is refused (e.g. an unknown profile).
   */
  client(): Promise<DaemonClient> {
    if (this.closing) return Promise.reject(new Error('the MCP server is shutting down'));
    this.current ??= this.open();
    return this.current;
  }

  private open(): Promise<DaemonClient> {
    const p = (async () => {
      const c = await connect(
        { root: this.opts.root },
        {
          name: 'hermes-mcp-serve',
          version: this.opts.version,
          profile: this.opts.profile,
          capabilities: { approvals: true, clarify: false },
          connectTimeoutMs: this.opts.connectTimeoutMs ?? 5_000,
          start: this.opts.start,
        },
      );
      c.onEvent((ev) => {
        for (const l of this.eventListeners) l(ev);
      });
      // heard, never answered here: an approval is answered only by an explicit approval_answer
      c.onServerRequest('approval.request', (params) => {
        for (const l of this.approvalListeners) l(params);
        return NO_REPLY;
      });
      void c.closed.then((info) => {
        if (this.current === p) this.current = undefined;
        this.attached.clear();
        if (!this.closing)
          this.opts.log(`the connection to the daemon closed (${info.code}); reconnecting on the next call`);
      });
      return c;
    })();
    p.catch(() => {
      if (this.current === p) this.current = undefined; // the next call tries again
    });
    return p;
  }

  /** Calls `listener` with every event of the attached sessions; returns the unsubscribe. */
  onEvent(listener: (ev: WireEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Calls `listener` with every approval asked of this connection; returns the unsubscribe. */
  onApproval(listener: (p: AskedApproval) => void): () => void {
    this.approvalListeners.add(listener);
    return () => this.approvalListeners.delete(listener);
  }

  /**
   * Attaches a session (the first holder attaches, with the snapshot's newest `historyLimit`
   * messages); `release` detaches it once the last holder let go.
   * @throws RpcCallError from `session.attach` (unknown session: -32001).
   */
  async hold(
    sessionId: string,
    historyLimit = 1,
  ): Promise<{ snapshot: Awaited<ReturnType<typeof attach>>; release: () => Promise<void> }> {
    const c = await this.client();
    const snapshot = await attach(c, sessionId, historyLimit);
    this.attached.set(sessionId, (this.attached.get(sessionId) ?? 0) + 1);
    let released = false;
    return {
      snapshot,
      release: async () => {
        if (released) return;
        released = true;
        const n = (this.attached.get(sessionId) ?? 1) - 1;
        if (n > 0) {
          this.attached.set(sessionId, n);
          return;
        }
        this.attached.delete(sessionId);
        await c.request('session.detach', { session_id: sessionId }).catch(() => undefined);
      },
    };
  }

  /** Closes the connection (the daemon and its turns go on). */
  async close(): Promise<void> {
    this.closing = true;
    const c = await this.current?.catch(() => undefined);
    await c?.close().catch(() => undefined);
  }
}

function attach(c: DaemonClient, sessionId: string, historyLimit: number) {
  return c.request('session.attach', { session_id: sessionId, history_limit: historyLimit });
}
