/**
 * `hermes status --tmux`: one short line for tmux's `status-right`, from one read of the daemon's
 * status feed. Loaded by main.ts before anything else (no yargs, no client, no zod): it reads the
 * discovery file, makes one call with mini-ws.ts and exits. Counts: `⚙N` sessions working, `⚠N`
 * waiting for the user (approval or clarify), `✗N` whose last turn failed; the empty line when
 * none (or when no daemon runs: tmux shows nothing then). Always exit code 0.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { miniCall } from './mini-ws.js';

/** A row of the feed as far as the line needs it. */
interface Row {
  state: string;
}

/** The line for these rows (`⚙2 ⚠1`), '' when nothing goes on. */
export function tmuxLine(rows: readonly Row[]): string {
  const n = (states: string[]): number => rows.filter((r) => states.includes(r.state)).length;
  const parts: string[] = [];
  const working = n(['working']);
  const waiting = n(['approval', 'clarify']);
  const failed = n(['failed']);
  if (working) parts.push(`⚙${working}`);
  if (waiting) parts.push(`⚠${waiting}`);
  if (failed) parts.push(`✗${failed}`);
  return parts.join(' ');
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
    const d = JSON.parse(readFileSync(join(rootOf(env), 'tui-gateway.json'), 'utf8')) as {
      host?: string;
      port: number;
      token: string;
    };
    const result = (await miniCall({ host: d.host ?? '127.0.0.1', port: d.port, token: d.token }, [
      {
        method: 'initialize',
        params: { client: { name: 'hermes-status-tmux', version: '0' }, capabilities: { approvals: false } },
      },
      { method: 'status.subscribe', params: { watch: false } },
    ])) as { sessions: Row[] };
    line = tmuxLine(result.sessions);
  } catch {
    // no daemon (or it does not answer): nothing to show
  }
  process.stdout.write(`${line}\n`);
  return 0;
}
