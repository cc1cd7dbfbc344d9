/**
 * What the user sees of the daemon's life (the decisions are the keeper's,
 * client/daemon-keeper.ts): the notices when the daemon vanished and a new one was started, when
 * it was stopped on purpose, and the `daemon` field of the store, which ends the turn on screen
 * once its daemon is known gone (no "responding", the timer stops).
 *
 * After a deliberate stop the daemon starts again only on the user's key: `r` on an empty composer
 * (App.tsx). A key of its own would collide with typing; an empty composer cannot be mid-word.
 */
import type { DaemonKeeper, KeeperChange, KeeperStatus } from '../client/daemon-keeper.js';
import { commandName } from '../command-name.js';
import type { ConnectionState } from '@hermes/client';
import type { SessionAction } from '../state/session-reducer.js';
import type { SessionState } from '../state/types.js';

/** The key that starts a stopped daemon, on an empty composer. */
export const START_DAEMON_KEY = 'r';

/** What the daemon life needs from the controller. */
export interface DaemonLifeHost {
  state(): SessionState;
  dispatch(action: SessionAction): void;
  notice(text: string, tone?: 'info' | 'warn' | 'error'): void;
  now(): number;
}

/** `HH:MM:SS` of an epoch-ms time, local. */
function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Tracks the connection and the keeper and tells the user. */
export class DaemonLife {
  /** When the connection dropped, and whether a turn was running then. */
  private drop: { at: number; busy: boolean } | null = null;
  private connectedOnce = false;
  /** A deliberate stop (or failed start) was shown since the last connection. */
  private stopShown = false;
  /** Unsubscribes from the keeper. */
  readonly dispose: () => void;

  constructor(
    private readonly keeper: DaemonKeeper,
    private readonly host: DaemonLifeHost,
  ) {
    this.dispose = keeper.onChange((status, change) => this.changed(status, change));
  }

  /** A connection state change (called before the store sees it). */
  connection(state: ConnectionState): void {
    if (state === 'reconnecting' && this.connectedOnce && !this.drop) {
      this.drop = { at: this.host.now(), busy: this.host.state().busy };
    }
  }

  /**
   * The handshake succeeded; the keeper learns it. `epochChanged`: another daemon than before
   * (whoever started it). True when a notice here said so (the generic one is then not shown).
   */
  connected(epochChanged: boolean): boolean {
    this.connectedOnce = true;
    let told = false;
    if (this.stopShown) {
      this.host.notice('The daemon is running again; re-attaching.');
      told = true;
    } else if (epochChanged && this.drop) {
      const turn = this.drop.busy
        ? `turn interrupted at ${clock(this.drop.at)} (its partial reply is kept)`
        : 'no turn was running';
      this.host.notice(`Daemon restarted; ${turn}. Re-attaching.`, 'warn');
      told = true;
    }
    this.stopShown = false;
    this.drop = null;
    this.keeper.connected();
    return told;
  }

  /** Starts the daemon (the user's key); a failure is reported through the keeper. */
  async start(): Promise<void> {
    if (!this.keeper.canRestart) return;
    this.host.notice('Starting the daemon…');
    await this.keeper.restart().catch(() => {});
  }

  private changed(status: KeeperStatus, change: KeeperChange): void {
    this.host.dispatch({ type: 'daemon', status });
    if (status === 'starting' && this.drop && !this.stopShown) {
      this.host.notice('The daemon is gone (not stopped by anyone); starting a new one…', 'warn');
    } else if (status === 'stopped') {
      this.stopShown = true;
      this.host.notice(
        this.keeper.canRestart
          ? `Daemon stopped — press ${START_DAEMON_KEY} (on an empty composer) to start it again.`
          : `Daemon stopped — start it again with: ${commandName()} gateway start`,
        'warn',
      );
    } else if (status === 'failed') {
      this.stopShown = true;
      const why = change.error ? `: ${change.error.message}` : '';
      this.host.notice(
        `Could not start the daemon${why} — press ${START_DAEMON_KEY} (on an empty composer) to try again.`,
        'error',
      );
    }
  }
}
