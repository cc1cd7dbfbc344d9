/**
 * The idle watchdog of one streamed model call: the request is aborted when the caller's signal
 * fires, or when nothing arrived for `timeoutMs` since the last `arm()` (the provider went quiet).
 */
import { ModelError } from './errors.js';

/** A running watchdog; `dispose()` it in a `finally`. */
export interface IdleWatchdog {
  /** Signal to give the SDK call: aborted by the caller's signal or by the idle timer. */
  readonly signal: AbortSignal;
  /** (Re)starts the idle timer: call when the stream opens and on every event. */
  arm(): void;
  /**
   * Call after the stream's iteration ended (the SDKs end it quietly on abort).
   * @throws `abortError()` when the caller aborted, ModelError `timeout` when the timer fired
   *   (`${provider} sent nothing for ${timeoutS} s (model ${model})`).
   */
  check(what: { provider: string; model: string; timeoutS: number }): void;
  /** Stops the timer and detaches from the caller's signal. */
  dispose(): void;
}

/**
 * Starts a watchdog for a call that the caller may abort through `callerSignal`.
 * @param abortError makes the SDK's own user-abort error (what the retry logic classifies as aborted).
 */
export function idleWatchdog(
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
  abortError: () => Error,
): IdleWatchdog {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  let fired = false;
  return {
    signal: ctl.signal,
    arm() {
      clearTimeout(idle);
      idle = setTimeout(() => {
        fired = true;
        ctl.abort();
      }, timeoutMs);
    },
    check({ provider, model, timeoutS }) {
      if (callerSignal?.aborted) throw abortError();
      if (fired)
        throw new ModelError('timeout', `${provider} sent nothing for ${timeoutS} s (model ${model})`, {
          provider,
        });
    },
    dispose() {
      clearTimeout(idle);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
