/** The options a `SessionController` (controller.ts) is made with. */
import type { DaemonKeeper } from '../client/daemon-keeper.js';
import type { DaemonClientLike } from '@hermes/client';
import type { StoreOptions } from '../state/store.js';
import type { SessionAction } from '../state/session-reducer.js';

/** Options of a `SessionController`. */
export interface ControllerOptions {
  client: DaemonClientLike;
  /** Working directory for new sessions. */
  cwd: string;
  /** Stored messages in an attach snapshot (default 200). */
  historyLimit?: number;
  /** Resolves before the first attach is shown (e.g. markdown loaded), so it prints rendered. */
  ready?: Promise<unknown>;
  /** Live-part redraw throttle, ms (default 33). */
  throttleMs?: number;
  /** The terminal output: paced frames wait while it still writes the previous one (store.ts). */
  drain?: StoreOptions<SessionAction>['drain'];
  /** Starts a vanished daemon and tells a deliberate stop (daemon-life.ts); none: only wait. */
  daemon?: DaemonKeeper;
  /**
   * Where the TUI's own warnings go (once per unknown event type a newer daemon sends).
   * Default: a warning line in the transcript.
   */
  warn?: (line: string) => void;
  now?: () => number;
  /** Where desktop notifications for the other sessions go (hub-notifier.ts); none: no notifications. */
  notify?: (bytes: string) => void;
}
