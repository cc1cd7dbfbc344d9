/** Options of a `DaemonClient`, and the wait-for-a-match helper behind `waitForEvent` / `waitForFrame`. */
import type { BackoffOptions } from './backoff.js';
import type { Endpoint } from './discovery.js';

/** Options of a `DaemonClient`. */
export interface DaemonClientOptions {
  /** Where to connect; a function is called before every attempt (the daemon may have restarted on another port). */
  endpoint: Endpoint | (() => Promise<Endpoint>);
  /** `client.name` sent in `initialize`. */
  name: string;
  /** `client.version` sent in `initialize` (default `0.0.0`). */
  version?: string;
  /** Profile to start in; default: the daemon's active profile. */
  profile?: string;
  /**
   * This client's instance id, sent at every `initialize`: its answers are `by: "client:<id>"`
   * across reconnects and profile switches (instead of `connection:<id>`).
   */
  instanceId?: string;
  /** Capabilities declared in `initialize` (default: none — no approvals are sent to it). */
  capabilities?: { approvals: boolean; clarify?: boolean; files?: boolean };
  /**
   * Reconnect after a dropped connection (backoff, re-handshake, re-attach of attached sessions).
   * Off (the default): the first drop closes the client for good (`closed` resolves).
   */
  reconnect?: boolean;
  /** Interval of client pings, ms (default 15 000 with `reconnect`, else 0: none). */
  pingIntervalMs?: number;
  /** A ping unanswered this long drops the connection, ms (default 10 000). */
  pingTimeoutMs?: number;
  /** Default timeout of requests, ms (default 60 000 with `reconnect`, else 0: none). */
  callTimeoutMs?: number;
  /** Budget for opening the socket and for `initialize`, ms (default 5 000). */
  connectTimeoutMs?: number;
  /** Largest frame accepted, bytes (default 64 MiB with `reconnect`, else 0: no limit). */
  maxPayload?: number;
  /** False: open the socket but send no `initialize` (tests of the handshake rule). Default true. */
  initialize?: boolean;
  /** Extra upgrade headers (e.g. `Origin` in tests). */
  headers?: Record<string, string>;
  /** Authorization header to send instead of `Bearer <token>`; null sends none (tests). */
  authorization?: string | null;
  /** Reconnect backoff. */
  backoff?: BackoffOptions;
  /** Random source for jitter (tests). */
  random?: () => number;
}

/** Resolves with the first value `subscribe` delivers that matches `pred`; rejects after `ms`. */
export function waitFor<T>(
  subscribe: (cb: (x: T) => void) => () => void,
  pred: (x: T) => boolean,
  ms: number,
  what: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${what} matched within ${ms} ms`));
    }, ms);
    const off = subscribe((x) => {
      if (!pred(x)) return;
      clearTimeout(timer);
      off();
      resolve(x);
    });
  });
}
