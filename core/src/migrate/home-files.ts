/**
 * The plain files of a home: SOUL.md, memories/MEMORY.md and USER.md (same format in both
 * programs), and skills. The original keeps skills flat (`skills/<name>/SKILL.md`) or in category
 * folders (`skills/<category>/<name>/SKILL.md`); here they are flat, so a skill keeps its folder
 * name. Nothing of this home is overwritten: a file or skill that exists and differs is reported.
 * Skills the original installs itself (listed in `skills/.bundled_manifest`) are not brought, and
 * a SKILL.md the content scanner refuses (it would become standing instructions) is reported
 * instead of copied, as a skill saved here would be.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstThreat } from '../security/content-scan.js';
import { skillNameError } from '../skills/skill-store.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { FileResult, SkillsResult } from './types.js';

/**
 * Copies `from` to `to` unless `to` exists (then `same` or `kept-ours`). With `dryRun` only says
 * what would happen. Mode 0600 (the agent's memory and identity are private).
 */
export function copyFileIfAbsent(name: string, from: string, to: string, dryRun: boolean): FileResult {
  if (!existsSync(from)) return { name, status: 'absent' };
  const data = readFileSync(from);
  if (existsSync(to)) return { name, status: readFileSync(to).equals(data) ? 'same' : 'kept-ours' };
  if (!dryRun) {
    mkdirSync(dirname(to), { recursive: true });
    writeFileAtomic(to, data, 0o600);
  }
  return { name, status: 'copied' };
}

/** Names of the skills the original installed itself (first field of each manifest line). */
export function bundledSkillNames(skillsDir: string): Set<string> {
  const file = join(skillsDir, '.bundled_manifest');
  if (!existsSync(file)) return new Set();
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/[\s:=,]/)[0] ?? '')
    .filter((n) => n && !n.startsWith('#'));
  return new Set(names);
}

/** A skill folder of the original: its name and folder. */
export interface SourceSkill {
  name: string;
  dir: string;
}

const isDir = (p: string): boolean => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The skill folders under `skillsDir`, flat or one category deep, in name order. */
export function findSourceSkills(skillsDir: string): SourceSkill[] {
  const out: SourceSkill[] = [];
  const entries = (d: string): string[] =>
    isDir(d)
      ? readdirSync(d)
          .filter((n) => !n.startsWith('.'))
          .sort()
      : [];
  for (const top of entries(skillsDir)) {
    const dir = join(skillsDir, top);
    if (!isDir(dir)) continue;
    if (existsSync(join(dir, 'SKILL.md'))) out.push({ name: top, dir });
    else
      for (const sub of entries(dir))
        if (isDir(join(dir, sub)) && existsSync(join(dir, sub, 'SKILL.md')))
          out.push({ name: sub, dir: join(dir, sub) });
  }
  return out;
}

function sameTree(a: string, b: string): boolean {
  try {
    return readFileSync(join(a, 'SKILL.md')).equals(readFileSync(join(b, 'SKILL.md')));
  } catch {
    return false;
  }
}

/**
 * Copies the original's skills into `targetSkillsDir` (symbolic links inside them are left out).
 * A name invalid here, bundled with the original, taken twice or already used here is reported.
 */
export function importSkills(
  sourceSkillsDir: string,
  targetSkillsDir: string,
  dryRun: boolean,
): SkillsResult {
  const result: SkillsResult = { copied: [], same: [], skipped: [] };
  const bundled = bundledSkillNames(sourceSkillsDir);
  const seen = new Set<string>();
  for (const skill of findSourceSkills(sourceSkillsDir)) {
    const label = skill.dir.slice(sourceSkillsDir.length + 1);
    if (bundled.has(skill.name)) {
      result.skipped.push({
        item: label,
        reason: 'installed by the Python Hermes itself (skills/.bundled_manifest)',
      });
      continue;
    }
    const bad = skillNameError(skill.name);
    if (bad) {
      result.skipped.push({ item: label, reason: bad });
      continue;
    }
    if (seen.has(skill.name)) {
      result.skipped.push({
        item: label,
        reason: `another skill of the Python Hermes is also named "${skill.name}"`,
      });
      continue;
    }
    seen.add(skill.name);
    const threat = firstThreat(readFileSync(join(skill.dir, 'SKILL.md'), 'utf8'), 'strict');
    if (threat) {
      result.skipped.push({
        item: label,
        reason: `blocked by the content scanner: ${threat.threatClass} (${threat.description}); review it in the source`,
      });
      continue;
    }
    const to = join(targetSkillsDir, skill.name);
    if (existsSync(to)) {
      if (sameTree(skill.dir, to)) result.same.push(skill.name);
      else
        result.skipped.push({
          item: label,
          reason: `this home already has a skill "${skill.name}" (not overwritten)`,
        });
      continue;
    }
    if (!dryRun) {
      mkdirSync(targetSkillsDir, { recursive: true });
      cpSync(skill.dir, to, {
        recursive: true,
        errorOnExist: true,
        force: false,
        filter: (src) => !lstatSync(src).isSymbolicLink(),
      });
    }
    result.copied.push(skill.name);
  }
  return result;
}

/** True when `dir` exists and is a folder. */
export function folderExists(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
