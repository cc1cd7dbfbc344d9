/**
 * A reader that went away: `hermes chat -q … --json | head -20` closes the pipe while the reply
 * is still streaming, and the next write fails with EPIPE. Node would turn that into an uncaught
 * 'error' event and a stack trace; instead the turn is stopped and the command ends quietly with
 * the exit code a shell shows for a process ended by SIGPIPE.
 */

/** Exit code after the reader of stdout went away (128 + SIGPIPE, what a shell reports for `yes | head`). */
export const EXIT_CLOSED_OUTPUT = 141;

/** The state of the watched output streams (see `watchClosedOutput`). */
export interface ClosedOutput {
  /** True once a write to one of the watched streams failed. */
  readonly closed: boolean;
  /** The exit code the command should end with once closed: 141 for EPIPE, 1 for another error. */
  readonly exitCode: number;
  /** Runs `fn` when the output closes (at once when it already has): the caller stops its turn. */
  onClose(fn: () => void): void;
}

/** A stream whose write errors can be watched (process.stdout, process.stderr, or a test double). */
export interface WatchedStream {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Watches `streams` (default: stdout and stderr) for a failed write. The first failure marks the
 * output closed and runs the `onClose` callbacks; that and every later error on these streams is
 * swallowed, so nothing crashes. An error other than EPIPE (a full disk behind `> file`) is named
 * on stderr when stderr still works. Call it before the first write; the listeners stay for the
 * life of the process, as writes queued before the end may still fail after the command returns.
 */
export function watchClosedOutput(
  streams: readonly WatchedStream[] = [process.stdout, process.stderr],
): ClosedOutput {
  const callbacks: Array<() => void> = [];
  const state = {
    closed: false,
    exitCode: EXIT_CLOSED_OUTPUT,
    onClose(fn: () => void): void {
      if (state.closed) fn();
      else callbacks.push(fn);
    },
  };
  for (const stream of streams) {
    stream.on('error', (err: Error) => {
      if (state.closed) return;
      state.closed = true;
      if ((err as NodeJS.ErrnoException).code !== 'EPIPE') {
        state.exitCode = 1;
        if (stream !== process.stderr) {
          try {
            process.stderr.write(`hermes: cannot write the output (${err.message}); stopping the turn\n`);
          } catch {
            /* stderr is gone too */
          }
        }
      }
      for (const fn of callbacks.splice(0)) fn();
    });
  }
  return state;
}
