/**
 * Ctrl+Z: job-control suspend of the TUI. The terminal is handed back first (raw mode off,
 * bracketed paste off, cursor shown; the shell drawn on the alternate screen, so the TUI's screen
 * is intact when it comes back), then SIGTSTP stops the whole process group (so `npm start`'s
 * npm and shell stop with it and the shell sees the job stopped). On SIGCONT (`fg`) the terminal
 * is taken back: raw mode on, the TUI's screen restored, and `redraw` asked for.
 */
import type { TerminalHandover } from './external-editor.js';

/** What `suspendTui` works with. */
export interface SuspendIo {
  /** Hands the terminal to the shell and takes it back (`terminalHandover`). */
  terminal: TerminalHandover;
  /** Called after the terminal is taken back (e.g. a re-render). */
  redraw?: () => void;
  /** Sends the stop signal (default: SIGTSTP to this process group). */
  stop?: () => void;
  /** The process whose SIGCONT ends the suspension (default: `process`). */
  proc?: Pick<NodeJS.Process, 'once' | 'off'>;
}

/** Whether job control can suspend here (not on Windows). */
export function canSuspend(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

/**
 * Suspends the TUI until the shell continues it. Resolves once resumed.
 * When the stop signal cannot be sent, the terminal is taken back at once and the promise
 * rejects with that error.
 */
export function suspendTui(io: SuspendIo): Promise<void> {
  const proc = io.proc ?? process;
  const stop =
    io.stop ??
    ((): void => {
      // pid 0: the process group, as vim and less do (a wrapper such as npm stops too)
      process.kill(0, 'SIGTSTP');
    });
  return new Promise<void>((resolve, reject) => {
    const onCont = (): void => {
      io.terminal.reclaim();
      io.redraw?.();
      resolve();
    };
    proc.once('SIGCONT', onCont);
    io.terminal.release();
    try {
      stop();
    } catch (err) {
      proc.off('SIGCONT', onCont);
      io.terminal.reclaim();
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
