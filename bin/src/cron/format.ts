/**
 * Human-readable output of `hermes cron` (pure functions: jobs and results in, text out). JSON
 * output does not pass through here.
 */
import { inertLine } from '../terminal-text.js';
import {
  blockedNote,
  type RunOutcome,
  type TickHealth,
  type TickStatus,
  type TickResult,
  formatInZone,
  type CronJob,
} from '@hermes/core/cron';
import { hermesCommand } from '../command-form.js';

/** `in 5m`, `in 2h`, `3m ago` … relative to `now` (epoch ms). */
export function relative(then: number, now: number): string {
  const d = then - now;
  const a = Math.abs(d) / 1000;
  const txt =
    a < 60
      ? `${Math.round(a)}s`
      : a < 3600
        ? `${Math.round(a / 60)}m`
        : a < 86_400
          ? `${Math.round(a / 3600)}h`
          : `${Math.round(a / 86_400)}d`;
  return d >= 0 ? `in ${txt}` : `${txt} ago`;
}

function when(isoText: string | null, now: number, zone: string): string {
  if (!isoText) return '-';
  const t = Date.parse(isoText);
  return Number.isFinite(t) ? `${formatInZone(t, zone)} (${relative(t, now)})` : isoText;
}

function state(job: CronJob): string {
  if (job.running) return `running (pid ${job.running.pid})`;
  return job.state;
}

function last(job: CronJob): string {
  if (!job.last_status) return 'never ran';
  if (job.last_status === 'blocked') {
    // `N command(s) blocked: CMD…` without the how-to (cron list is a table; cron run prints it)
    const what = inertLine(
      (job.last_error ?? '').split(/\.(?: |$)/)[0]!.replace(/ (was|were) blocked:/, ' blocked:'),
    );
    return `blocked: ${what.length > 70 ? `${what.slice(0, 69)}…` : what}`;
  }
  return job.last_status === 'error'
    ? `error: ${inertLine((job.last_error ?? '').split('\n')[0]!).slice(0, 60)}`
    : job.last_status;
}

/** The job table (`hermes cron list`). */
export function formatJobTable(jobs: readonly CronJob[], now: number, zone: string): string {
  if (jobs.length === 0)
    return `No cron jobs. Add one with: ${hermesCommand()} cron add "every 2h" "check the news"\n`;
  const rows = jobs.map((j) => [
    j.id,
    inertLine(j.name.length > 28 ? `${j.name.slice(0, 27)}…` : j.name),
    j.schedule_display,
    state(j),
    when(j.next_run_at, now, zone),
    last(j),
  ]);
  const head = ['ID', 'NAME', 'SCHEDULE', 'STATE', `NEXT RUN (${zone})`, 'LAST'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}

/** One job in detail (after add/edit/pause/resume). */
export function formatJob(job: CronJob, now: number, zone: string): string {
  return [
    `${job.id}  ${inertLine(job.name)}`,
    `  schedule: ${job.schedule_display}   state: ${state(job)}`,
    `  next run: ${when(job.next_run_at, now, zone)}`,
    `  deliver:  ${job.deliver.join(', ')}${job.repeat.times ? `   repeat: ${job.repeat.completed}/${job.repeat.times}` : ''}`,
    ...(job.skills.length ? [`  skills:   ${job.skills.join(', ')}`] : []),
    ...(job.last_status ? [`  last run: ${when(job.last_run_at, now, zone)} ${last(job)}`] : []),
    '',
  ].join('\n');
}

/** One run's result (`hermes cron run`, `hermes cron tick`). */
export function formatOutcome(o: RunOutcome): string {
  const head = `${o.jobId} ${inertLine(o.name)}: ${o.status}${o.error ? ` (${inertLine(o.error.split('\n')[0]!)})` : ''}`;
  const blocked = o.blockedCommands?.length ? [`  ${blockedNote(o.blockedCommands)}`] : [];
  const delivered =
    o.status === 'silent'
      ? 'nothing delivered (silent reply)'
      : o.delivered.length
        ? `delivered to ${o.delivered.join(', ')}`
        : 'not delivered';
  return [
    head,
    ...blocked,
    `  output: ${o.outputFile}`,
    `  ${delivered}${o.deliveryErrors.length ? `; failed: ${o.deliveryErrors.join('; ')}` : ''}`,
    ...(o.completed
      ? ['  that was its last run: the job is completed (edit its schedule to run it again)']
      : []),
    '',
  ].join('\n');
}

/** `hermes cron tick`. */
export function formatTick(r: TickResult): string {
  if (r.status === 'locked')
    return 'Another tick is running (daemon or another hermes cron tick); nothing done.\n';
  if (r.status === 'failed') return `Tick failed: ${r.error}\n`;
  const d = r.decision!;
  const lines = [
    `Tick: ${d.due.length} due${d.fastForwarded.length ? `, ${d.fastForwarded.length} late past their grace (run once, missed times skipped)` : ''}${d.missed.length ? `, ${d.missed.length} one-shot(s) missed` : ''}${d.interrupted.length ? `, ${d.interrupted.length} interrupted run(s) recorded` : ''}${d.skippedRunning.length ? `, ${d.skippedRunning.length} still running` : ''}.`,
  ];
  return `${lines.join('\n')}\n${r.outcomes.map(formatOutcome).join('')}${r.error ? `Errors: ${r.error}\n` : ''}`;
}

/** `hermes cron status`. */
export function formatStatus(args: {
  health: TickHealth;
  status: TickStatus;
  now: number;
  daemon: string;
  jobs: readonly CronJob[];
  zone: string;
}): string {
  const { health, status: s, now, jobs, zone } = args;
  const ago = (t: string | null): string => (t ? `${t} (${relative(Date.parse(t), now)})` : 'never');
  const verdict = {
    never: `never ticked: start the daemon (${hermesCommand()} gateway start) or run ${hermesCommand()} cron tick`,
    working: 'alive and working',
    failing: `alive but every tick fails since ${ago(s.last_success_at)}: ${s.last_error ?? 'unknown error'}`,
    stale: `not ticking: last tick ${ago(s.last_tick_at)} (is the daemon running?)`,
  }[health];
  const enabled = jobs.filter((j) => j.enabled && j.state === 'scheduled');
  const next = enabled
    .map((j) => Date.parse(j.next_run_at ?? ''))
    .filter(Number.isFinite)
    .sort((a, b) => a - b)[0];
  const failed = jobs.filter((j) => j.last_status === 'error' || j.last_status === 'blocked');
  return [
    `Cron: ${verdict}`,
    `  last tick:    ${ago(s.last_tick_at)}${s.last_ticker ? ` by ${s.last_ticker}` : ''}`,
    `  last success: ${ago(s.last_success_at)}`,
    ...(s.last_error_at ? [`  last error:   ${ago(s.last_error_at)}: ${inertLine(s.last_error ?? '')}`] : []),
    `  daemon:       ${args.daemon}`,
    `  jobs:         ${jobs.length} (${enabled.length} scheduled, ${jobs.filter((j) => j.state === 'paused').length} paused)${next !== undefined ? `; next run ${formatInZone(next, zone)} (${relative(next, now)})` : ''}`,
    ...(failed.length
      ? [`  last run failed: ${failed.map((j) => `${j.id} (${inertLine(j.name)})`).join(', ')}`]
      : []),
    '',
  ].join('\n');
}
