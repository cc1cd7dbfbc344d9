/**
 * The TUI's side of the daemon's life: it is the `endpoint` function of the gateway client, so it
 * runs before every (re)connect attempt and decides what a missing daemon means.
 *
 * The rule:
 * - a live daemon in the discovery file: connect to it;
 * - a stale discovery file (the pid is gone: `kill -9`, a crash) and no deliberate stop seen:
 *   start a new daemon, then connect to it. Every TUI that lost it may do this at once; the
 *   starter is the daemon's own (`hermes gateway start`), whose pid lock lets exactly one new
 *   daemon run — the other starters' children exit and they connect to the winner;
 * - after a deliberate stop (`gateway.shutdown` was received, or the discovery file is gone,
 *   which only a clean exit does): never start one; report `stopped` and keep looking, so a
 *   daemon started elsewhere (another TUI's key, `hermes gateway start`) is found by itself.
 *   `restart()` (the user's key) clears the stop and starts one.
 */
import type { Endpoint } from '@hermes/client';

/** What the discovery file says right now. */
export type DaemonLook =
  | { state: 'alive'; endpoint: Endpoint }
  /** The file names a process that no longer runs. */
  | { state: 'stale' }
  /** No file: no daemon was started, or the last one stopped cleanly. */
  | { state: 'absent' };

/** Where the keeper is. */
export type KeeperStatus = 'ok' | 'starting' | 'stopped' | 'failed';

/** Extra facts with a status change. */
export interface KeeperChange {
  /** `ok` after this keeper (or a racing TUI) started a new daemon for a vanished one. */
  restarted?: boolean;
  /** Why a start failed. */
  error?: Error;
}

/** Options of a `DaemonKeeper`. */
export interface DaemonKeeperOptions {
  /** Reads the discovery file and checks its process. */
  look(): Promise<DaemonLook>;
  /** Starts a daemon and resolves once one answers (racing starters end with one daemon). */
  start?: () => Promise<void>;
}

/** Listener of status changes (`stopped` and `failed` are reported once per stop or failure). */
export type KeeperListener = (status: KeeperStatus, change: KeeperChange) => void;

/** Thrown by `endpoint()` when no daemon runs and none may be started now. */
export class DaemonStoppedError extends Error {
  constructor() {
    super('the daemon was stopped');
    this.name = 'DaemonStoppedError';
  }
}

/** Decides, before each connect attempt, whether to connect, start a daemon, or wait. */
export class DaemonKeeper {
  private _status: KeeperStatus = 'ok';
  /** A deliberate stop was seen and not yet undone. */
  private deliberate = false;
  /** The start in flight (one per keeper). */
  private starting: Promise<void> | null = null;
  /** A daemon was started since the last connect: the next `ok` says `restarted`. */
  private restartedPending = false;
  private readonly listeners = new Set<KeeperListener>();

  constructor(private readonly opts: DaemonKeeperOptions) {}

  /** Current status. */
  get status(): KeeperStatus {
    return this._status;
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onChange(listener: KeeperListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True when the user may start the daemon again (it was stopped, or a start failed). */
  get canRestart(): boolean {
    return (this._status === 'stopped' || this._status === 'failed') && this.opts.start !== undefined;
  }

  /** The daemon announced a shutdown (`gateway.shutdown`): do not start one after it goes. */
  noteShutdown(): void {
    this.deliberate = true;
  }

  /** A connection succeeded: the daemon is back, by whoever started it. */
  connected(): void {
    this.deliberate = false;
    const restarted = this.restartedPending;
    this.restartedPending = false;
    this.set('ok', restarted ? { restarted: true } : {});
  }

  /** The gateway client's endpoint function: see the rule at the top of this file. */
  endpoint = async (): Promise<Endpoint> => {
    const look = await this.opts.look();
    if (look.state === 'alive') return look.endpoint;
    if (this.starting) {
      await this.starting;
      return this.afterStart();
    }
    if (look.state === 'absent' || this.deliberate || !this.opts.start) {
      this.deliberate = true;
      this.set('stopped', {});
      throw new DaemonStoppedError();
    }
    if (this._status === 'failed') throw new DaemonStoppedError(); // the user's key retries
    await this.startOnce();
    return this.afterStart();
  };

  /** Starts the daemon on the user's request (after a stop or a failed start). */
  async restart(): Promise<void> {
    this.deliberate = false;
    await this.startOnce();
  }

  /**
   * Takes a daemon start already under way (begun at launch, before the keeper existed) as this
   * keeper's own: status `starting`, and connect attempts wait for it. Resolves or rejects with it.
   */
  adoptStart(start: Promise<void>): Promise<void> {
    this.deliberate = false;
    if (this.starting) return this.starting;
    return this.track(start);
  }

  private async afterStart(): Promise<Endpoint> {
    const look = await this.opts.look();
    if (look.state === 'alive') return look.endpoint;
    throw new DaemonStoppedError();
  }

  private startOnce(): Promise<void> {
    const start = this.opts.start;
    if (!start) return Promise.reject(new DaemonStoppedError());
    if (this.starting) return this.starting;
    return this.track(start());
  }

  /** Makes `start` the start in flight (status `starting`; `failed` when it rejects). */
  private track(start: Promise<void>): Promise<void> {
    this.set('starting', {});
    this.starting = start
      .then(
        () => {
          this.restartedPending = true;
        },
        (err: unknown) => {
          this.set('failed', { error: err instanceof Error ? err : new Error(String(err)) });
          throw err;
        },
      )
      .finally(() => {
        this.starting = null;
      });
    return this.starting;
  }

  private set(status: KeeperStatus, change: KeeperChange): void {
    if (status === this._status && !change.restarted) return;
    this._status = status;
    for (const l of [...this.listeners]) l(status, change);
  }
}
