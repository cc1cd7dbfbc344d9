/**
 * `hermes heartbeat add|list|remove`: heartbeats of the selected profile, through the daemon
 * (which stores and runs them). Exit codes: 0; 1 for a refused request (unknown session or id,
 * a bad interval); 3 when no daemon runs.
 */
import type { HeartbeatInfo } from '@hermes/core/protocol';
import { CliExit, type CliContext } from '../context.js';
import { connectIfRunning } from '../daemon-connection.js';
import { NO_DAEMON_EXIT } from '../status/run-status.js';
import { hermesCommand } from '../command-form.js';

/** Arguments of `hermes heartbeat`. */
export type HeartbeatArgs =
  | { action: 'add'; session: string; every: string; prompt: string; json: boolean }
  | { action: 'list'; session?: string; json: boolean }
  | { action: 'remove'; id: string; json: boolean };

/** One line of a heartbeat. */
export function heartbeatText(h: HeartbeatInfo): string {
  return `${h.id}  session ${h.session_id}  every ${h.every}  next ${h.next_run_at}  ${h.runs} run(s)  ${JSON.stringify(h.prompt)}`;
}

/**
 * Runs `hermes heartbeat`.
 * @throws CliExit(3) without a daemon, CliExit(1) when the daemon refuses.
 */
export async function runHeartbeat(ctx: CliContext, args: HeartbeatArgs): Promise<void> {
  const client = await connectIfRunning(ctx, 'hermes-heartbeat');
  if (!client)
    throw new CliExit(
      NO_DAEMON_EXIT,
      `no daemon is running: heartbeats run in it (${hermesCommand()} gateway start)`,
    );
  const print = (v: unknown, text: string): void =>
    void process.stdout.write(args.json ? `${JSON.stringify(v, null, 2)}\n` : `${text}\n`);
  try {
    if (args.action === 'add') {
      const r = await client.request('heartbeat.add', {
        session_id: args.session,
        every: args.every,
        prompt: args.prompt,
      });
      print(r.heartbeat, `Added ${heartbeatText(r.heartbeat)}`);
    } else if (args.action === 'remove') {
      const r = await client.request('heartbeat.remove', { id: args.id });
      print(r.heartbeat, `Removed ${heartbeatText(r.heartbeat)}`);
    } else {
      const r = await client.request('heartbeat.list', args.session ? { session_id: args.session } : {});
      print(
        r.heartbeats,
        r.heartbeats.length
          ? r.heartbeats.map(heartbeatText).join('\n')
          : `No heartbeats in profile ${ctx.home.profile}.`,
      );
    }
  } catch (err) {
    if (err instanceof CliExit) throw err;
    throw new CliExit(1, (err as Error).message);
  } finally {
    await client.close();
  }
}
