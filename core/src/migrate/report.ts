/** The text `hermes migrate` prints: per profile and kind, what came and what did not, and why. */
import type { MigrateReport, ProfileReport, Skipped } from './types.js';

const list = (items: readonly string[], max = 12): string =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} … (+${items.length - max})`;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function skippedLines(out: string[], indent: string, items: readonly Skipped[]): void {
  for (const s of items) out.push(`${indent}- ${s.item}: ${s.reason}`);
}

function profileLines(p: ProfileReport, dryRun: boolean, out: string[]): void {
  const will = (done: string, planned: string): string => (dryRun ? planned : done);
  out.push(`profile ${p.name}: ${p.from} → ${p.to}`);
  if (p.config) {
    const c = p.config;
    out.push(
      `  config.yaml: ${c.keys.length ? `${plural(c.keys.length, 'key')} ${will('brought', 'would come')}` : 'nothing new'}` +
        (c.renamed.length ? ` (renamed: ${list(c.renamed)})` : ''),
    );
    if (c.unknown.length) out.push(`    not used by this hermes (kept in the file): ${list(c.unknown)}`);
    if (c.conflicts.length)
      out.push(`    already set here with another value (ours kept): ${list(c.conflicts)}`);
    if (c.guarded.length) {
      out.push("    not switched on here (they loosen what guards the agent's commands):");
      skippedLines(out, '      ', c.guarded);
    }
    if (c.invalid.length) {
      out.push('    invalid here (left out; the original file keeps them):');
      skippedLines(out, '      ', c.invalid);
    }
  }
  if (p.env) {
    const e = p.env;
    out.push(
      `  .env: ${e.added.length ? `${plural(e.added.length, 'key')} ${will('added', 'would be added')} (${list(e.added)})` : 'no new keys'}`,
    );
    if (e.conflicts.length)
      out.push(`    already set here with another value (ours kept): ${list(e.conflicts)}`);
    skippedLines(out, '    ', e.skipped);
  }
  for (const f of p.files) {
    if (f.status === 'absent') continue;
    const what =
      f.status === 'copied'
        ? will('copied', 'would be copied')
        : f.status === 'same'
          ? 'already here'
          : 'this home has its own, which differs (not overwritten)';
    out.push(`  ${f.name}: ${what}`);
  }
  if (p.skills) {
    const s = p.skills;
    out.push(
      `  skills: ${plural(s.copied.length, 'skill')} ${will('copied', 'would be copied')}${s.copied.length ? ` (${list(s.copied)})` : ''}` +
        (s.same.length ? `; ${s.same.length} already here` : ''),
    );
    skippedLines(out, '    ', s.skipped);
  }
  if (p.cron) {
    const c = p.cron;
    out.push(
      `  cron: ${plural(c.jobs.length, 'job')} ${will('added, paused', 'would be added, paused')}` +
        (c.alreadyMigrated ? `; ${c.alreadyMigrated} already migrated` : ''),
    );
    for (const j of c.jobs) out.push(`    ${j.id}  ${j.schedule}  ${j.name}  (paused)`);
    skippedLines(out, '    ', c.skipped);
  }
  if (p.sessions) {
    const s = p.sessions;
    out.push(
      `  sessions: ${plural(s.sessions, 'session')} with ${plural(s.messages, 'message')} ${will('brought', 'would come')}` +
        (s.alreadyMigrated ? `; ${s.alreadyMigrated} already migrated` : ''),
    );
    for (const [why, n] of Object.entries(s.skippedMessages))
      out.push(`    - ${plural(n, 'message')} left out: ${why}`);
    skippedLines(out, '    ', s.skipped);
  }
  for (const w of p.warnings) out.push(`  warning: ${w}`);
  for (const e of p.errors) out.push(`  error: ${e.item}: ${e.reason}`);
}

/** Formats the report for the terminal (no colours). */
export function formatReport(r: MigrateReport): string {
  const out: string[] = [
    r.dryRun
      ? `Dry run: what hermes migrate would bring from ${r.from} into ${r.to} (nothing is changed)`
      : `Migrated from the Python Hermes at ${r.from} into ${r.to} (the source was only read)`,
  ];
  if (r.backup)
    out.push(
      r.dryRun
        ? `In place: after the copy is verified, the original files would move, unchanged, to ${r.backup}`
        : `In place: the copy was verified, then the original files were moved, unchanged, to ${r.backup} ` +
            `(the Python Hermes runs from there with HERMES_HOME=${r.backup})`,
    );
  for (const p of r.profiles) profileLines(p, r.dryRun, out);
  for (const s of r.skippedProfiles) out.push(`profile ${s.item}: not brought: ${s.reason}`);
  const jobs = r.profiles.reduce((n, p) => n + (p.cron?.jobs.length ?? 0), 0);
  if (!r.dryRun && jobs > 0)
    out.push(
      'Cron jobs arrive paused: `hermes cron resume ID` starts one (stop it in the Python Hermes first).',
    );
  const errors = r.profiles.reduce((n, p) => n + p.errors.length, 0);
  if (errors > 0)
    out.push(
      `${plural(errors, 'error')}: fix the named file and run hermes migrate again (what came is not brought twice).`,
    );
  return `${out.join('\n')}\n`;
}

/** True when some file could not be migrated (the command then exits 1). */
export function reportHasErrors(r: MigrateReport): boolean {
  return r.profiles.some((p) => p.errors.length > 0);
}
