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
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { Document, isAlias, isMap, isScalar, parseDocument, visit } from 'yaml';
import { parseJobsText, renderJobsFile } from '../cron/store.js';
import { iso } from '../cron/types.js';
import { HermesHome } from '../home/home.js';
import { scanContent, threatClasses } from '../security/content-scan.js';
import { writeFileAtomic } from '../util/atomic-write.js';

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
  writeFileAtomic(file, renderJobsFile(jobs, now), 0o600);
  return paused;
}

/**
 * Settings an archive may not bring in, with the value they are reset to. `smart` counts as
 * loosened too: the archive also chooses the model (and `model.base_url`) that would judge the
 * commands.
 */
const LOOSENING: ReadonlyArray<{ path: string[]; risky: (v: unknown) => boolean; reset: unknown }> = [
  { path: ['approvals', 'mode'], risky: (v) => v !== 'manual', reset: 'manual' },
  { path: ['approvals', 'cron_mode'], risky: (v) => v !== 'deny', reset: 'deny' },
  { path: ['web', 'allow_private_urls'], risky: (v) => v === true, reset: false },
];

/**
 * Makes an imported profile safe to serve (see the file comment), in its staging folder before it
 * is renamed into place, so the daemon never sees it switched on. Edits config.yaml through the
 * YAML document API so comments and other keys stay — unless the file uses aliases (`*a`), which
 * could hide a setting from the checks: then it is rewritten from its resolved values. Files are
 * replaced atomically. A config.yaml that does not parse is left for the profile's loader to
 * report.
 * @param dir the extracted profile folder (laid out like a profile home).
 * @param name the profile's name, for the "switch it back on" commands.
 * @returns one line per thing switched off, saying how to switch it back on.
 */
export function quarantineImportedProfile(dir: string, name: string): string[] {
  const home = new HermesHome(dir);
  const notes: string[] = [];
  const paused = pauseAllJobs(home.cronJobsFile);
  if (paused) notes.push(`${paused} cron job(s) paused; resume with: hermes -p ${name} cron resume ID`);
  if (existsSync(home.hooksDir)) {
    const aside = `${home.hooksDir}.imported-disabled`;
    renameSync(home.hooksDir, aside);
    notes.push(`hooks set aside in ${aside}; review them and move the folder back to hooks/ to enable`);
  }
  const soul = setAsideFlaggedSoul(home);
  if (soul) notes.push(soul);
  if (!existsSync(home.configFile)) return notes;
  const parsed = parseDocument(readFileSync(home.configFile, 'utf8'));
  if (parsed.errors.length || !isMap(parsed.contents)) return notes;
  let doc: Document = parsed;
  let changed = false;
  if (hasAlias(parsed)) {
    doc = new Document(parsed.toJS(), { aliasDuplicateObjects: false });
    changed = true;
    notes.push('config.yaml used YAML aliases; rewritten from its resolved values (comments dropped)');
  }
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
  if (changed) writeFileAtomic(home.configFile, doc.toString(), 0o600);
  return notes;
}

/**
 * Sets an imported SOUL.md aside when the content scanner (`context` scope, as for a project's
 * AGENTS.md) flags it: the profile's own SOUL.md is loaded as the agent's identity without a
 * scan, so an archive's copy is checked once, here.
 * @returns the note for the user, or undefined when there is no SOUL.md or it is clean.
 */
function setAsideFlaggedSoul(home: HermesHome): string | undefined {
  if (!existsSync(home.soulFile)) return undefined;
  const classes = threatClasses(scanContent(readFileSync(home.soulFile, 'utf8'), 'context'));
  if (classes.length === 0) return undefined;
  const aside = `${home.soulFile}.imported-blocked`;
  renameSync(home.soulFile, aside);
  return `SOUL.md set aside in ${aside} (the content scanner flagged ${classes.join(', ')}); review it and rename it back to SOUL.md to use it`;
}

/** True when any node of the document is an alias (`*name`). */
function hasAlias(doc: Document): boolean {
  let found = false;
  visit(doc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found || isAlias(doc.contents);
}

function isListWithItems(v: unknown): boolean {
  return !!v && typeof v === 'object' && 'items' in v && Array.isArray((v as { items: unknown[] }).items)
    ? (v as { items: unknown[] }).items.length > 0
    : false;
}
