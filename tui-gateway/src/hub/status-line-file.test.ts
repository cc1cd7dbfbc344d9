import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATUS_LINE_FILE } from '@hermes/core/constants';
import { StatusFeed } from './status-feed.js';
import { keepStatusLineFile } from './status-line-file.js';

const SCRIPT = new URL('../../../bin/hermes-status-line', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const cron = (id: string) => ({
  profile: 'default',
  session_id: id,
  title: `cron: ${id}`,
  started_at: 1,
  tokens: 0,
  cost_usd: null,
});

describe('status-line file', () => {
  it('follows the feed (0600, rewritten on change), is removed on stop, and the sh reader prints it while the pid lives', () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-status-line-'));
    dirs.push(root);
    const file = join(root, STATUS_LINE_FILE);
    const feed = new StatusFeed({ coalesceMs: 60_000 });
    const stop = keepStatusLineFile(root, feed);
    expect(readFileSync(file, 'utf8')).toBe('\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    feed.cronRunning(cron('a'));
    feed.cronRunning(cron('b'));
    feed.flush();
    expect(readFileSync(file, 'utf8')).toBe('⚙2\n');

    const read = (pid: number) => {
      writeFileSync(
        join(root, 'tui-gateway.json'),
        `${JSON.stringify({ pid, port: 1, token: 't' }, null, 2)}\n`,
      );
      return execFileSync('sh', [SCRIPT], { env: { PATH: process.env.PATH, HERMES_HOME: root } }).toString();
    };
    expect(read(process.pid)).toBe('⚙2\n');
    // a profile's home reads the root's line
    expect(
      execFileSync('sh', [SCRIPT], {
        env: { PATH: process.env.PATH, HERMES_HOME: join(root, 'profiles', 'work') },
      }).toString(),
    ).toBe('⚙2\n');
    // a daemon that is gone (killed, its file left behind): nothing
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
    expect(read(dead)).toBe('\n');

    feed.cronEnded('default', 'a');
    feed.flush();
    expect(readFileSync(file, 'utf8')).toBe('⚙1\n');
    stop();
    expect(existsSync(file)).toBe(false);
    expect(read(process.pid)).toBe('\n');
  });
});
