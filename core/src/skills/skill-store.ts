/**
 * Reading and writing one skill: `<home>/skills/<name>/SKILL.md` (the
 * original's tools/skills_tool.py and tools/skill_manager_tool.py).
 *
 * - A skill name is a folder name: `^[a-z0-9][a-z0-9._-]{0,63}$` (lower case, at most 64 chars,
 *   no path separators), so a name can never point outside the skills folder.
 * - A SKILL.md written through `writeSkill` must start with YAML front matter carrying a
 *   non-empty `name` (equal to the folder name) and `description` (at most 1,024 chars, as the
 *   original), followed by a non-empty body.
 * - Writes are atomic (temp file + rename); a delete refuses a folder that is a symlink or that
 *   does not resolve strictly inside the skills folder.
 * - `loadSkillAsUserMessage` gives the text a frontend sends as the user message for
 *   `/<skill-name>`: the body goes into the conversation, never the system prompt, so the
 *   provider's prompt cache stays valid.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { firstThreat } from '../security/content-scan.js';
import { listSkills, parseSkillFile } from './skills-index.js';

/** Longest skill name, chars. */
export const SKILL_NAME_MAX = 64;
/** Longest front matter `description`, chars. */
export const SKILL_DESCRIPTION_MAX = 1024;
/** Largest SKILL.md accepted by `writeSkill`, chars. */
export const SKILL_MAX_CHARS = 100_000;

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A skill read from disk. */
export interface Skill {
  /** Folder name (the `/skill-name` command). */
  name: string;
  /** Front matter `description` (may be empty for hand-written skills). */
  description: string;
  /** The text after the front matter. */
  body: string;
  /** The whole file. */
  text: string;
  /** Absolute path of SKILL.md. */
  path: string;
}

/** Why `name` is not a valid skill name, or undefined when it is. */
export function skillNameError(name: string): string | undefined {
  if (!NAME_RE.test(name) || name.includes('..'))
    return `invalid skill name "${name}": use lower-case letters, digits, ".", "_" and "-" (start with a letter or digit, at most ${SKILL_NAME_MAX} chars)`;
  return undefined;
}

/** Absolute folder of skill `name`. @throws Error for an invalid name. */
export function skillDir(home: HermesHome, name: string): string {
  const err = skillNameError(name);
  if (err) throw new Error(err);
  return join(home.skillsDir, name);
}

/**
 * Finds a skill by folder name, or by the `name` in its front matter (case-insensitive) when no
 * folder has that name. Undefined when there is none.
 */
export function findSkill(home: HermesHome, name: string): Skill | undefined {
  const wanted = name.trim().replace(/^\//, '');
  if (wanted === '') return undefined;
  let path: string | undefined;
  if (!skillNameError(wanted)) {
    const direct = join(home.skillsDir, wanted, 'SKILL.md');
    if (existsSync(direct)) path = direct;
  }
  if (!path) {
    const lower = wanted.toLowerCase();
    path = listSkills(home.skillsDir).find((s) => s.name.toLowerCase() === lower)?.path;
  }
  if (!path) return undefined;
  const text = readFileSync(path, 'utf8');
  const { meta, body } = parseSkillFile(text);
  const folder = relative(home.skillsDir, resolve(path, '..'));
  return {
    name: folder,
    description: typeof meta.description === 'string' ? meta.description.trim() : '',
    body,
    text,
    path,
  };
}

/**
 * Checks the content of a SKILL.md for `name`.
 * @returns an error message, or undefined when the content is acceptable.
 */
export function skillContentError(name: string, content: string): string | undefined {
  if (content.length > SKILL_MAX_CHARS)
    return `SKILL.md is ${content.length} chars; the limit is ${SKILL_MAX_CHARS}`;
  if (!/^---\r?\n/.test(content))
    return 'SKILL.md must start with YAML front matter: "---\\nname: <name>\\ndescription: <one line>\\n---" followed by the instructions';
  const { meta, body } = parseSkillFile(content);
  if (Object.keys(meta).length === 0)
    return 'the front matter is not valid YAML (or is not closed by a "---" line)';
  if (typeof meta.name !== 'string' || meta.name.trim() === '')
    return 'the front matter needs a non-empty "name"';
  if (meta.name.trim() !== name)
    return `the front matter name "${meta.name.trim()}" must equal the skill name "${name}"`;
  if (typeof meta.description !== 'string' || meta.description.trim() === '')
    return 'the front matter needs a non-empty "description" (one line saying when to use the skill)';
  if (meta.description.length > SKILL_DESCRIPTION_MAX)
    return `the description is ${meta.description.length} chars; the limit is ${SKILL_DESCRIPTION_MAX}`;
  if (body.trim() === '') return 'the skill has no instructions after the front matter';
  return undefined;
}

/**
 * Writes `<home>/skills/<name>/SKILL.md` atomically (mode 0644), creating the folder.
 * @param mode `create` refuses an existing skill; `edit` refuses a missing one.
 * @returns the path written.
 * Content passes the content scanner's `strict` scope first (instruction overrides, secret
 * exfiltration, persistence, invisible Unicode …).
 * @throws Error naming the problem (invalid name, invalid content, a threat class, exists / missing).
 */
export function writeSkill(home: HermesHome, name: string, content: string, mode: 'create' | 'edit'): string {
  const dir = skillDir(home, name);
  const contentErr = skillContentError(name, content);
  if (contentErr) throw new Error(contentErr);
  const threat = firstThreat(content, 'strict');
  if (threat) {
    throw new Error(
      `Blocked: the skill matches threat class ${threat.threatClass} (pattern ${threat.id}: ${threat.description}: ` +
        `"${threat.excerpt}"). A skill becomes standing instructions; write the procedure without it.`,
    );
  }
  const file = join(dir, 'SKILL.md');
  const exists = existsSync(file);
  if (mode === 'create' && exists)
    throw new Error(`skill "${name}" already exists (use action "edit" to replace it)`);
  if (mode === 'edit' && !exists) throw new Error(`no skill "${name}" (use action "create")`);
  assertInsideSkills(home, dir, false);
  writeFileAtomic(file, Buffer.from(content.endsWith('\n') ? content : `${content}\n`, 'utf8'), 0o644);
  return file;
}

/** @throws Error when `dir` (if it exists) is a symlink or does not resolve inside the skills folder. */
function assertInsideSkills(home: HermesHome, dir: string, mustExist: boolean): void {
  if (!existsSync(dir)) {
    if (mustExist) throw new Error(`${dir} does not exist`);
    return;
  }
  if (lstatSync(dir).isSymbolicLink())
    throw new Error(`refusing to touch ${dir}: the skill folder is a symlink`);
  const root = realpathSync(home.skillsDir);
  const real = realpathSync(dir);
  if (real === root || !real.startsWith(root + sep))
    throw new Error(`refusing to touch ${dir}: it does not resolve inside ${root}`);
}

/**
 * Deletes the folder of skill `name` (SKILL.md and any supporting files).
 * @throws Error for an invalid name, a missing skill, or a folder that is a symlink / escapes
 *   the skills folder.
 */
export function deleteSkill(home: HermesHome, name: string): string {
  const dir = skillDir(home, name);
  if (!existsSync(join(dir, 'SKILL.md'))) throw new Error(`no skill "${name}" in ${home.skillsDir}`);
  assertInsideSkills(home, dir, true);
  rmSync(dir, { recursive: true, force: true });
  return dir;
}

/**
 * The user message a frontend sends for `/<skill-name> [extra text]`: a short header naming the
 * skill, its full instructions (front matter removed), and the user's extra text when given.
 * Undefined when there is no such skill (the frontend then treats `/<name>` as unknown).
 */
export function loadSkillAsUserMessage(home: HermesHome, name: string, extra = ''): string | undefined {
  const skill = findSkill(home, name);
  if (!skill) return undefined;
  const parts = [
    `[Skill "${skill.name}" loaded by the user${skill.description ? `: ${skill.description}` : ''}]`,
    '',
    skill.body.trim(),
  ];
  if (extra.trim()) parts.push('', `User request: ${extra.trim()}`);
  else parts.push('', 'Follow these instructions for my next requests.');
  return parts.join('\n');
}
