/** How a turn that could not run is reported to the session's clients (the `error` event). */
import { ConfigError } from '@hermes/core/config';
import { SessionDBError } from '@hermes/core/state';

/** The session state could not be stored when a turn was about to start (the turn does not run). */
export class TurnStartError extends Error {
  constructor(cause: unknown) {
    super(`the turn could not start: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'TurnStartError';
  }
}

/** The `error` event of a turn that failed with `err`: its message, and `kind` when known. */
export function turnErrorPayload(err: unknown): { message: string; kind?: string } {
  const cause = err instanceof TurnStartError ? err.cause : err;
  const message = err instanceof Error ? err.message : String(err);
  if (cause instanceof SessionDBError) return { message, kind: 'storage' };
  if (cause instanceof ConfigError) return { message, kind: 'config' };
  return { message };
}
