/**
 * `/copy`: how the text reaches the clipboard and what to say about it. The TUI cannot see the
 * clipboard, so the message says only what is known:
 * - inside tmux, tmux's own options decide: `set-clipboard on` takes a plain OSC 52 (tmux's buffer,
 *   and the outer terminal when it supports it); otherwise `allow-passthrough on` lets the
 *   wrapped sequence through to the outer terminal; with neither (tmux's defaults are
 *   `external` and `off`) nothing can reach the clipboard, and the text goes to tmux's paste
 *   buffer instead (`tmux load-buffer`), said as such;
 * - outside tmux, terminals known to accept OSC 52 get "Copied"; any other is told the sequence
 *   was sent and may not be supported.
 */
import { execFileSync } from 'node:child_process';
import { OSC52_MAX_BYTES, osc52 } from './osc52.js';

/** What `/copy` does: the bytes to write (or none), the tmux buffer fallback, and the message. */
export interface CopyPlan {
  /** Escape sequence to write to the terminal; null: none would arrive. */
  sequence: string | null;
  /** Put the text into tmux's paste buffer (`tmux load-buffer -`). */
  tmuxBuffer: boolean;
  message: string;
  tone: 'info' | 'warn';
}

/** Reads a global tmux option of the tmux this TUI runs in (`tmux show -gv NAME`); null if unknown. */
export type TmuxOption = (name: string) => string | null;

/** Reads a tmux option through the `tmux` program (the server named by `$TMUX`). */
export const readTmuxOption: TmuxOption = (name) => {
  try {
    return execFileSync('tmux', ['show-options', '-gv', name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
  } catch {
    return null;
  }
};

/** Puts `text` into tmux's paste buffer; false when tmux refused. */
export function loadTmuxBuffer(text: string): boolean {
  try {
    execFileSync('tmux', ['load-buffer', '-'], {
      input: text,
      stdio: ['pipe', 'ignore', 'ignore'],
      timeout: 2000,
    });
    return true;
  } catch {
    return false;
  }
}

/** Terminals known to take OSC 52 writes with their default settings. */
export function knownOsc52Terminal(env: NodeJS.ProcessEnv): boolean {
  const program = env.TERM_PROGRAM ?? '';
  return (
    'KITTY_WINDOW_ID' in env ||
    'WT_SESSION' in env ||
    env.TERM === 'xterm-kitty' ||
    env.TERM === 'alacritty' ||
    env.TERM === 'foot' ||
    ['WezTerm', 'ghostty', 'vscode'].includes(program)
  );
}

/**
 * Plans copying `text` (`what` names it in the message, e.g. "the last reply").
 * @param tmuxOption reads tmux options (only called when `$TMUX` is set).
 */
export function planCopy(
  text: string,
  what: string,
  env: NodeJS.ProcessEnv = process.env,
  tmuxOption: TmuxOption = readTmuxOption,
): CopyPlan {
  const bytes = Buffer.byteLength(text, 'utf8');
  const size = `${text.length} characters${bytes > OSC52_MAX_BYTES ? `, cut to the first ${OSC52_MAX_BYTES} bytes` : ''}`;
  if (env.TMUX) {
    const clipboard = tmuxOption('set-clipboard');
    if (clipboard === 'on') {
      return {
        sequence: osc52(text, {}),
        tmuxBuffer: false,
        message: `Copied ${what} (${size}) to tmux's buffer; tmux passes it to your terminal's clipboard when the terminal supports OSC 52.`,
        tone: 'info',
      };
    }
    const passthrough = tmuxOption('allow-passthrough');
    if (passthrough === 'on' || passthrough === 'all') {
      return {
        sequence: osc52(text, env),
        tmuxBuffer: false,
        message: `Sent ${what} (${size}) via OSC 52 through tmux; your terminal may not support it.`,
        tone: 'info',
      };
    }
    return {
      sequence: null,
      tmuxBuffer: true,
      message:
        `Not copied to the clipboard: tmux's set-clipboard is ${clipboard ?? 'unknown'} and allow-passthrough is ` +
        `${passthrough ?? 'unknown'}, so OSC 52 cannot reach your terminal. ${what[0]!.toUpperCase()}${what.slice(1)} ` +
        `is in tmux's paste buffer (prefix ]); \`tmux set -g set-clipboard on\` lets /copy reach the clipboard.`,
      tone: 'warn',
    };
  }
  if (knownOsc52Terminal(env)) {
    return {
      sequence: osc52(text, env),
      tmuxBuffer: false,
      message: `Copied ${what} (${size}) to the clipboard.`,
      tone: 'info',
    };
  }
  return {
    sequence: osc52(text, env),
    tmuxBuffer: false,
    message: `Sent ${what} (${size}) via OSC 52; your terminal may not support it.`,
    tone: 'info',
  };
}
