/**
 * The raw sequence of the key being handled. Ink's `useInput` hands out a parsed key only; a
 * listener on the same input events, registered before the composer's `useInput`, records each
 * key's sequence so the handler can read it (e.g. DEL vs `ESC [3~`, both `key.delete` in Ink).
 */
import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import type { EventEmitter } from 'node:events';

/**
 * Returns a ref holding the raw sequence of the latest key Ink parsed (one key per event).
 * Call it before `useInput` in the same component, so it sees each key first.
 */
export function useRawInput(): { readonly current: string } {
  const raw = useRef('');
  const stdin = useStdin() as unknown as { internal_eventEmitter?: EventEmitter };
  const emitter = stdin.internal_eventEmitter;
  useEffect(() => {
    if (!emitter) return;
    const onInput = (data: unknown): void => {
      raw.current = typeof data === 'string' ? data : String(data);
    };
    // first in line: the composer's handler, registered after this, reads it
    emitter.prependListener('input', onInput);
    return () => {
      emitter.off('input', onInput);
    };
  }, [emitter]);
  return raw;
}
