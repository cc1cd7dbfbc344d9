/**
 * `hermes status --tmux`: one short line for tmux's `status-right`, from one read of the daemon's
 * status feed. Loaded by main.ts before anything else (no yargs, no client, no zod): it reads the
 * discovery file, then the line the daemon keeps in its status-line file while the daemon's pid is
 * alive, else makes one `status.subscribe` call with mini-ws.ts, and exits. Counts: `⚙N` sessions working, `⚠N`
 * waiting for the user (approval or clarify), `✗N` whose last turn failed; the empty line when
 * none (or when no daemon runs: tmux shows nothing then). Always exit code 0.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { STATUS_LINE_FILE, statusLine } from '@hermes/core/constants';
import { miniCall } from './mini-ws.js';

/** A row of the feed as far as the line needs it. */
interface Row {
  state: string;
}

/** The root as core's resolveRoot finds it (HERMES_HOME, its root inside `profiles/`, else ~/.hermes). */
export function rootOf(env: NodeJS.ProcessEnv): string {
  const raw = env.HERMES_HOME?.trim();
  if (!raw) return join(env.HOME || homedir(), '.hermes');
  const dir = resolve(raw);
  const parent = dirname(dir);
  return basename(parent) === 'profiles' && /^[a-z0-9][a-z0-9_-]{0,63}$/.test(basename(dir))
    ? dirname(parent)
    : dir;
}

/** Prints the line (with a newline) and resolves with exit code 0. */
export async function runTmuxLine(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let line = '';
  try {
    const root = rootOf(env);
    const d = JSON.parse(readFileSync(join(root, 'tui-gateway.json'), 'utf8')) as {
      pid?: number;
      host?: string;
      port: number;
      token: string;
    };
    // the daemon keeps the line in a file: read it while its pid is alive (no socket round trip)
    const kept = keptLine(root, d.pid);
    if (kept !== undefined) {
      process.stdout.write(`${kept}\n`);
      return 0;
    }
    const result = (await miniCall({ host: d.host ?? '127.0.0.1', port: d.port, token: d.token }, [
      {
        method: 'initialize',
        params: { client: { name: 'hermes-status-tmux', version: '0' }, capabilities: { approvals: false } },
      },
      { method: 'status.subscribe', params: { watch: false } },
    ])) as { sessions: Row[] };
    line = statusLine(result.sessions);
  } catch {
    // no daemon (or it does not answer): nothing to show
  }
  process.stdout.write(`${line}\n`);
  return 0;
}

/** The daemon's status-line file when its process `pid` is alive, else undefined. */
function keptLine(root: string, pid: number | undefined): string | undefined {
  if (!pid) return undefined;
  try {
    process.kill(pid, 0);
    return readFileSync(join(root, STATUS_LINE_FILE), 'utf8').trimEnd();
  } catch {
    return undefined;
  }
}
