/**
 * What an imported profile may not bring in switched on. An archive is someone else's files: its
 * config could turn approvals off, pre-approve commands, start MCP server commands or run hooks,
 * and its cron jobs would fire unattended as soon as the daemon serves the profile (adversarial
 * trial: an imported "every 1m" job with `cron_mode: allow` ran `rm -rf` without anyone opening
 * the profile). So on import: cron jobs arrive paused, approval-loosening settings go back to their
 * defaults, MCP servers are disabled, and the hooks folder is set aside — each reported, with the
 * command that turns it back on once the user trusts it. A full clone pauses jobs the same way
 * (one daemon serves every profile, so active copies would fire twice).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isMap, isScalar, parseDocument } from 'yaml';
import { parseJobsText, renderJobsFile } from '../cron/store.js';
import { iso } from '../cron/types.js';
import type { HermesHome } from '../home/home.js';

/**
 * Pauses every job of a `cron/jobs.json` that could still fire (`paused_at` now, running marker
 * cleared). A file that does not parse is left as it is: the profile's cron store reports it.
 * @returns how many jobs were paused.
 */
export function pauseAllJobs(file: string, now = Date.now()): number {
  if (!existsSync(file)) return 0;
  let jobs;
  try {
    jobs = parseJobsText(readFileSync(file, 'utf8'));
  } catch {
    return 0;
  }
  let paused = 0;
  for (const job of jobs) {
    job.running = null;
    if (job.state !== 'scheduled') continue;
    job.enabled = false;
    job.state = 'paused';
    job.paused_at = iso(now);
    paused++;
  }
  writeFileSync(file, renderJobsFile(jobs, now), { mode: 0o600 });
  return paused;
}

/** Settings an archive may not bring in, with the value they are reset to. */
const LOOSENING: ReadonlyArray<{ path: string[]; risky: (v: unknown) => boolean; reset: unknown }> = [
  { path: ['approvals', 'mode'], risky: (v) => v !== 'manual' && v !== 'smart', reset: 'manual' },
  { path: ['approvals', 'cron_mode'], risky: (v) => v !== 'deny', reset: 'deny' },
  { path: ['web', 'allow_private_urls'], risky: (v) => v === true, reset: false },
];

/**
 * Makes a freshly imported profile safe to serve (see the file comment). Edits config.yaml through
 * the YAML document API so comments and other keys stay; a config.yaml that does not parse is left
 * for the profile's own loader to report.
 * @returns one line per thing switched off, saying how to switch it back on.
 */
export function quarantineImportedProfile(home: HermesHome, name: string): string[] {
  const notes: string[] = [];
  const paused = pauseAllJobs(home.cronJobsFile);
  if (paused) notes.push(`${paused} cron job(s) paused; resume with: hermes -p ${name} cron resume ID`);
  if (existsSync(home.hooksDir)) {
    const aside = `${home.hooksDir}.imported-disabled`;
    renameSync(home.hooksDir, aside);
    notes.push(`hooks set aside in ${aside}; review them and move the folder back to hooks/ to enable`);
  }
  if (!existsSync(home.configFile)) return notes;
  const doc = parseDocument(readFileSync(home.configFile, 'utf8'));
  if (doc.errors.length || !isMap(doc.contents)) return notes;
  let changed = false;
  for (const rule of LOOSENING) {
    const value = doc.getIn(rule.path);
    const plain = isScalar(value) ? value.value : value;
    if (plain === undefined || !rule.risky(plain)) continue;
    doc.setIn(rule.path, rule.reset);
    changed = true;
    const key = rule.path.join('.');
    notes.push(
      `${key} was ${JSON.stringify(plain)} in the archive, reset to ${JSON.stringify(rule.reset)}; ` +
        `to keep it: hermes -p ${name} config set ${key} ${String(plain)}`,
    );
  }
  const allow = doc.get('command_allowlist');
  if (isListWithItems(allow)) {
    doc.set('command_allowlist', []);
    changed = true;
    notes.push(`command_allowlist emptied (pre-approved commands from the archive); approvals ask again`);
  }
  const servers = doc.get('mcp_servers');
  if (isMap(servers)) {
    for (const item of servers.items) {
      const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
      if (!isMap(item.value) || item.value.get('enabled') === false) continue;
      item.value.set('enabled', false);
      changed = true;
      notes.push(
        `MCP server "${key}" disabled (it starts a command); to enable: hermes -p ${name} config set mcp_servers.${key}.enabled true`,
      );
    }
  }
  if (changed) writeFileSync(home.configFile, doc.toString(), { mode: 0o600 });
  return notes;
}

function isListWithItems(v: unknown): boolean {
  return !!v && typeof v === 'object' && 'items' in v && Array.isArray((v as { items: unknown[] }).items)
    ? (v as { items: unknown[] }).items.length > 0
    : false;
}
