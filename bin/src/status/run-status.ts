/**
 * `hermes status [--json] [--watch]`: every live session of the daemon across profiles, from its
 * status feed (`status.subscribe`). `--watch` redraws the table on every `status.changed` (and
 * each second, for the turn times) until Ctrl+C. Exit codes: 0, or 3 when no daemon runs.
 */
import type { LiveSessionStatus } from '@hermes/core/protocol';
import { CliExit, type CliContext } from '../context.js';
import { connectIfRunning } from '../daemon-connection.js';
import { statusTable } from './status-table.js';
import { hermesCommand } from '../command-form.js';

/** Exit code of `hermes status` when no daemon runs. */
export const NO_DAEMON_EXIT = 3;

/** Arguments of `hermes status`. */
export interface StatusArgs {
  json: boolean;
  watch: boolean;
}

/**
 * Runs `hermes status`.
 * @throws CliExit(3) when no daemon runs.
 */
export async function runStatus(ctx: CliContext, args: StatusArgs): Promise<void> {
  const client = await connectIfRunning(ctx, 'hermes-status');
  if (!client)
    throw new CliExit(NO_DAEMON_EXIT, `no daemon is running (${hermesCommand()} gateway start starts it)`);
  const rows = new Map<string, LiveSessionStatus>();
  const keyOf = (r: LiveSessionStatus): string => `${r.profile}/${r.session_id}`;
  const draw = (): void => {
    const list = [...rows.values()];
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ sessions: list, at: Date.now() })}\n`);
      return;
    }
    if (args.watch && process.stdout.isTTY) process.stdout.write('\x1b[H\x1b[2J');
    process.stdout.write(statusTable(list, Date.now()));
  };
  if (!args.watch) {
    try {
      const r = await client.request('status.subscribe', { watch: false });
      for (const s of r.sessions) rows.set(keyOf(s), s);
      if (args.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      else process.stdout.write(statusTable(r.sessions, r.at));
    } finally {
      await client.close();
    }
    return;
  }
  client.onEvent((e) => {
    if (e.type !== 'status.changed') return;
    for (const k of e.payload.removed) rows.delete(k);
    for (const s of e.payload.sessions) rows.set(keyOf(s), s);
    draw();
  });
  const r = await client.request('status.subscribe', { watch: true });
  for (const s of r.sessions) rows.set(keyOf(s), s);
  draw();
  const tick = args.json ? undefined : setInterval(draw, 1000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  clearInterval(tick);
  await client.close();
}
