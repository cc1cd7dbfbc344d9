/**
 * The daemon's status-line file (`<root>/tui-gateway.status-line`): the tmux line of the status
 * feed (`statusLine`), rewritten (atomically, 0600) whenever it changes, so a tmux status bar can
 * show it without starting Node (`bin/hermes-status-line`, a POSIX sh script that prints it while
 * the daemon's pid is alive). Removed when the daemon stops; a killed daemon leaves it behind,
 * which is why readers check the pid of the discovery file first.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_LINE_FILE, statusLine } from '@hermes/core/constants';
import type { StatusFeed } from './status-feed.js';

/**
 * Keeps the status-line file of `root` up to date with `feed`.
 * @returns a stop function that removes the file. Write failures are logged, never thrown.
 */
export function keepStatusLineFile(root: string, feed: StatusFeed, log?: (line: string) => void): () => void {
  const file = join(root, STATUS_LINE_FILE);
  let last: string | undefined;
  const write = (): void => {
    const line = statusLine(feed.snapshot());
    if (line === last) return;
    try {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${line}\n`, { mode: 0o600 });
      renameSync(tmp, file);
      last = line;
    } catch (err) {
      log?.(`status line: cannot write ${file}: ${(err as Error).message}`);
    }
  };
  write();
  const off = feed.onChange(write);
  return () => {
    off();
    rmSync(file, { force: true });
  };
}
