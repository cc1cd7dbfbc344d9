/**
 * The composer's steer key: Ctrl+S sends the typed text as guidance for the running turn
 * (`/steer`), without interrupting it. Ctrl+S reaches the TUI in every common terminal and in
 * tmux — the TUI's raw mode turns off XON/XOFF flow control — and the composer had no use for it.
 */
import type { Key } from 'ink';

/** The key as help and hints name it. */
export const STEER_KEY_NAME = 'Ctrl+S';

/** True for the steer key (Ctrl+S). */
export function isSteerKey(input: string, key: Pick<Key, 'ctrl' | 'meta'>): boolean {
  return key.ctrl && !key.meta && input === 's';
}
