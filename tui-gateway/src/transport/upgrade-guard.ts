/**
 * Bounds on connections that have not finished their HTTP upgrade ("half-open"): a local process
 * that opens many sockets and sends its upgrade request slowly (or never) must not hold the
 * daemon's file descriptors. Each new socket must complete its upgrade request within
 * `headerTimeoutMs` (5 s) or it is destroyed; a peer (remote address) may hold at most
 * `perPeer` (16) half-open sockets and all peers together `total` (64): a socket over either cap
 * is answered `503` and closed at once.
 */
import type { Socket } from 'node:net';

/** Time a new connection has to complete its upgrade request, ms. */
export const UPGRADE_HEADER_TIMEOUT_MS = 5_000;
/** Half-open connections one peer may hold. */
export const MAX_HALF_OPEN_PER_PEER = 16;
/** Half-open connections all peers together may hold. */
export const MAX_HALF_OPEN_TOTAL = 64;

/** Limits of an `UpgradeGuard`. */
export interface UpgradeLimits {
  /** ms (default `UPGRADE_HEADER_TIMEOUT_MS`). */
  headerTimeoutMs?: number;
  /** Default `MAX_HALF_OPEN_PER_PEER`. */
  perPeer?: number;
  /** Default `MAX_HALF_OPEN_TOTAL`. */
  total?: number;
}

/** Why a socket was dropped, for the (rate-limited) log. */
export type GuardDrop = 'header timeout' | 'too many half-open connections';

/** Tracks half-open sockets of one server. */
export class UpgradeGuard {
  private readonly byPeer = new Map<string, Set<Socket>>();
  private readonly timers = new Map<Socket, { timer: NodeJS.Timeout; peer: string }>();
  private readonly headerTimeoutMs: number;
  private readonly perPeer: number;
  private readonly total: number;

  constructor(
    limits: UpgradeLimits,
    private readonly onDrop: (peer: string, why: GuardDrop) => void,
  ) {
    this.headerTimeoutMs = limits.headerTimeoutMs ?? UPGRADE_HEADER_TIMEOUT_MS;
    this.perPeer = limits.perPeer ?? MAX_HALF_OPEN_PER_PEER;
    this.total = limits.total ?? MAX_HALF_OPEN_TOTAL;
  }

  /** Half-open sockets now. */
  get size(): number {
    return this.timers.size;
  }

  /** A new socket (the server's `connection` event): admitted, or refused with 503 and closed. */
  admit(socket: Socket): void {
    const peer = socket.remoteAddress ?? '?';
    const mine = this.byPeer.get(peer);
    if ((mine?.size ?? 0) >= this.perPeer || this.timers.size >= this.total) {
      this.onDrop(peer, 'too many half-open connections');
      socket.on('error', () => socket.destroy());
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () =>
        socket.destroy(),
      );
      socket.setTimeout(1000, () => socket.destroy());
      return;
    }
    const set = mine ?? new Set<Socket>();
    set.add(socket);
    this.byPeer.set(peer, set);
    const timer = setTimeout(() => {
      this.settle(socket);
      this.onDrop(peer, 'header timeout');
      socket.destroy();
    }, this.headerTimeoutMs);
    timer.unref();
    this.timers.set(socket, { timer, peer });
    socket.once('close', () => this.settle(socket));
  }

  /** The socket finished its request (upgrade or plain HTTP) or closed: it is no longer half-open. */
  settle(socket: Socket): void {
    const entry = this.timers.get(socket);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.timers.delete(socket);
    const { peer } = entry;
    const set = this.byPeer.get(peer);
    set?.delete(socket);
    if (set && set.size === 0) this.byPeer.delete(peer);
  }
}
