/**
 * `hermes ps [--json] [--kill ID]`: the background processes of the selected profile. Through the
 * daemon (`process.list`, `process.kill`) when it runs; otherwise from the record the daemon
 * keeps (`<root>/run/background-processes.json`), saying that the daemon is not running — a
 * process still shows `running` when its leader has the recorded start time; what is wrong with a
 * damaged record goes to stderr.
 */
import type { BackgroundProcessInfo } from '@hermes/core/protocol';
import { CliExit, type CliContext } from '../context.js';
import { connectIfRunning } from '../daemon-connection.js';

/** Arguments of `hermes ps`. */
export interface PsArgs {
  json: boolean;
  kill?: string;
}

/**
 * Runs `hermes ps`.
 * @throws CliExit(1) for `--kill` without a daemon, or an id unknown in the profile.
 */
export async function runPs(ctx: CliContext, args: PsArgs): Promise<void> {
  const { processList, loadBackgroundRecord, processAlive, backgroundRecordFile } =
    await import('../lazy/processes.js');
  const client = await connectIfRunning(ctx, 'hermes-ps');
  if (!client) {
    if (args.kill) throw new CliExit(1, 'the daemon is not running: nothing can stop the process through it');
    const record = loadBackgroundRecord(ctx.home.root);
    // a damaged record is said, not shown as an empty list
    for (const p of record.problems) process.stderr.write(`hermes ps: ${p}\n`);
    const entries = record.entries
      .filter((e) => e.profile === ctx.home.profile)
      .map((e) =>
        e.state === 'running' && !processAlive(e) ? { ...e, state: 'gone' as const, ended_at: null } : e,
      );
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ daemon: false, processes: entries }, null, 2)}\n`);
      return;
    }
    process.stdout.write(
      `The daemon is not running; background processes of profile ${ctx.home.profile} as recorded in ${backgroundRecordFile(ctx.home.root)}:\n${processList(entries)}\n`,
    );
    return;
  }
  try {
    if (args.kill) {
      let killed: BackgroundProcessInfo;
      try {
        killed = (await client.request('process.kill', { id: args.kill })).process;
      } catch (err) {
        throw new CliExit(1, (err as Error).message);
      }
      process.stdout.write(`${killed.id}: ${killed.state}${killed.signal ? ` (${killed.signal})` : ''}\n`);
      return;
    }
    const r = await client.request('process.list', {});
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ daemon: true, ...r }, null, 2)}\n`);
      return;
    }
    const entries = r.processes.map((p) => ({ ...p, start: null, dropped: 0 }));
    process.stdout.write(
      `${r.running} running background process(es) in profile ${ctx.home.profile}:\n${processList(entries)}\n`,
    );
  } finally {
    await client.close();
  }
}
