/**
 * The first-run model setup inside the session controller: before the first session opens (and
 * after a profile switch) it checks that the profile has a usable model; when not, it holds the
 * session back, opens the setup card, saves the user's choice through the daemon, and then opens
 * the session it held back. `/setup` opens the card on demand.
 */
import type { DaemonClientLike } from '@hermes/client';
import {
  describeChoice,
  readModelStatus,
  saveModelSetup,
  type ModelSection,
  type SetupChoice,
} from '../setup/model-setup.js';
import type { SessionAction } from '../state/session-reducer.js';
import type { SessionState } from '../state/types.js';
import type { StartTarget } from './start-target.js';

/** What the flow needs from the controller. */
export interface SetupHost {
  readonly client: DaemonClientLike;
  readonly state: SessionState;
  dispatch(action: SessionAction): void;
  notice(text: string, tone?: 'info' | 'warn' | 'error'): void;
  /** Opens (attaches) a session. */
  open(target: StartTarget): Promise<void>;
  refreshModel(): Promise<void>;
}

/** One controller's model setup. */
export class ModelSetupFlow {
  /** The session to open once the setup is done or skipped. */
  private afterSetup: StartTarget | null = null;
  /** The profile's `model:` section when the card opened. */
  private modelSection: ModelSection = {};

  constructor(private readonly host: SetupHost) {}

  /**
   * Opens the card when the profile has no usable model (no model and no key or server), or
   * when `force` (`/setup`). @returns true when the card opened.
   */
  async check(force = false): Promise<boolean> {
    const h = this.host;
    const status = await readModelStatus(h.client);
    if (!status || (status.ready && !force)) return false;
    const profile = h.state.profile ?? h.client.server?.profile ?? 'default';
    this.modelSection = status.model;
    if (!status.ready) {
      h.notice(
        `No model is configured for profile "${profile}" yet. Choose a provider below: a local ` +
          'server, OpenRouter or OpenAI with an API key, or any OpenAI-compatible base URL.',
        'warn',
      );
    }
    h.dispatch({ type: 'setup', setup: { profile } });
    return true;
  }

  /** Opens `target`, or first the card when the profile has no usable model. */
  async openOrSetup(target: StartTarget, detachFirst = false): Promise<void> {
    if (await this.check()) {
      if (detachFirst) this.host.dispatch({ type: 'detached' });
      this.afterSetup = target;
      return;
    }
    await this.host.open(target);
  }

  /** Saves the choice through the daemon, closes the card and opens the waiting session. */
  async complete(choice: SetupChoice): Promise<void> {
    const h = this.host;
    await saveModelSetup(h.client, choice, this.modelSection);
    h.dispatch({ type: 'setup', setup: null });
    h.notice(describeChoice(choice));
    void h.refreshModel();
    await this.leave('Sessions started from now on use it; /new starts one.');
  }

  /** Closes the card without a model (Esc). */
  skip(): void {
    const h = this.host;
    if (!h.state.setup) return;
    h.dispatch({ type: 'setup', setup: null });
    h.notice('No model set up: replies will fail until one is. /setup opens the setup again.', 'warn');
    void this.leave(null);
  }

  private async leave(note: string | null): Promise<void> {
    const target = this.afterSetup;
    this.afterSetup = null;
    if (!target) {
      if (note && this.host.state.sessionId) this.host.notice(note);
      return;
    }
    try {
      await this.host.open(target);
    } catch (err) {
      this.host.notice(err instanceof Error ? err.message : String(err), 'error');
    }
  }
}
