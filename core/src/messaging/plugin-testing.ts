/**
 * Helpers for unit tests of platform plugins (`plugins/platforms/<name>/src/*.test.ts`): a
 * `PlatformContext` built like the daemon builds one, and `FakeHost`, which stands where the
 * message pipeline stands — it receives what an adapter hands over (messages, button presses,
 * connection losses) and lets a test wait for them with a deadline. Not exported from the
 * package index; import `@hermes/core/messaging/plugin-testing`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigSchema } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import { HermesHome } from '../home/home.js';
import type {
  ButtonOutcome,
  ButtonPress,
  InboundMessage,
  InboundReceipt,
  PlatformAdapter,
} from './adapter.js';
import { resolveInboundAttachments } from './inbound-attachments.js';
import { PlatformConfigSchema } from './platform-config.js';
import type { PlatformContext } from './registry.js';

/**
 * A context for one platform of a throw-away profile.
 * @param opts.config the `platforms.<name>` section as written in config.yaml (common keys get
 *   their defaults, the platform's own keys are kept).
 * @param opts.secrets the profile's `.env` values.
 */
export function testPlatformContext(
  opts: { config?: Record<string, unknown>; secrets?: Secrets; log?: (line: string) => void } = {},
): PlatformContext {
  return {
    profile: 'default',
    // a new folder per context: state an adapter keeps in its home never leaks between tests
    home: new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-plugin-test-home-'))),
    hermesConfig: ConfigSchema.parse({}),
    config: PlatformConfigSchema.parse(opts.config ?? {}),
    secrets: opts.secrets ?? {},
    log: opts.log ?? (() => undefined),
  };
}

/**
 * The host side of an adapter: install with `attach`, then wait for what the adapter emits.
 * `reply` runs for every message inside the adapter's `onMessage` call, as the pipeline's turn
 * does (an adapter answering inside the request, like api_server, needs the reply there).
 */
export class FakeHost {
  readonly messages: InboundMessage[] = [];
  readonly buttons: ButtonPress[] = [];
  readonly fatal: Error[] = [];
  private readonly wakers = new Set<() => void>();

  /**
   * The receipt given to every message (default: accepted, not durable) — set it to test how an
   * adapter answers a refused or unavailable message.
   */
  receipt: (message: InboundMessage) => InboundReceipt = () => ({
    kind: 'accepted',
    id: `fake-${this.messages.length}`,
    durable: false,
  });

  /**
   * Whether a message's sender counts as authorized (default: everyone): an authorized message's
   * `fetchAttachments` is run and merged before it is recorded in `messages`, as the pipeline does;
   * an unauthorized one is recorded as it came, its attachments never fetched. The adapter's
   * `senderAdmitted` asks it too (with the source and an empty text).
   */
  authorized: (message: InboundMessage) => boolean = () => true;

  /** What every button press gets (default: answered) — set it to test a refusal. */
  buttonOutcome: (press: ButtonPress) => ButtonOutcome = () => ({ kind: 'answered' });

  constructor(private readonly reply?: (message: InboundMessage) => void | Promise<void>) {}

  /** Installs this host's handlers on `adapter` (before `connect`). */
  attach<A extends PlatformAdapter>(adapter: A): A {
    adapter.setHandlers({
      onMessage: async ({ onReceipt, ...pending }) => {
        // as the pipeline does: attachments are fetched only for an authorized sender
        const m = this.authorized(pending) ? await resolveInboundAttachments(pending) : pending;
        this.messages.push(m);
        // as the pipeline does: the decision first, before the turn runs
        onReceipt?.(this.receipt(m));
        this.wake();
        await this.reply?.(m);
      },
      onButton: (p) => {
        this.buttons.push(p);
        this.wake();
        return this.buttonOutcome(p);
      },
      // the same rule answers an adapter's question before a lookup
      isAuthorized: (source) => this.authorized({ source, text: '' }),
      onFatalError: (e) => {
        this.fatal.push(e);
        this.wake();
      },
    });
    return adapter;
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /**
   * Resolves with the first truthy value of `probe`, checked now and after every event the
   * adapter emits.
   * @throws Error naming `what` when `timeoutMs` passes first.
   */
  async waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 2_000): Promise<T> {
    const first = probe();
    if (first) return first;
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(check);
      };
      const check = (): void => {
        const v = probe();
        if (!v) return;
        done();
        resolve(v);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.wakers.add(check);
    });
  }

  /** The `n`-th message (0-based), waiting for it. */
  message(n = 0, timeoutMs?: number): Promise<InboundMessage> {
    return this.waitFor(() => this.messages[n], `message #${n + 1}`, timeoutMs);
  }
}
