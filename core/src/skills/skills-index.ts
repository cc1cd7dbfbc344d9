/**
 * The skills index: name + description of every `<home>/skills/<name>/SKILL.md`.
 * Only the index goes into the system prompt; a skill's body is loaded on demand as a user message
 * so the provider's prompt cache stays valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The YAML parser, loaded on the first SKILL.md with front matter: a home without skills (and
 * every `hermes chat` start-up, which builds the index) does not pay for loading it.
 */
let parseYaml: ((text: string) => unknown) | undefined;
function yamlParse(text: string): unknown {
  parseYaml ??= (createRequire(import.meta.url)('yaml') as { parse: (t: string) => unknown }).parse;
  return parseYaml(text);
}

/** One skill as listed in the index. */
export interface SkillSummary {
  /** Folder name (the `/skill-name` command). */
  name: string;
  /** One line from the front matter `description` (or the first body line). */
  description: string;
  /** Absolute path of SKILL.md. */
  path: string;
}

/** Splits `---` front matter from a SKILL.md; front matter that is not valid YAML is ignored. */
export function parseSkillFile(text: string): { meta: Record<string, unknown>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  let meta: Record<string, unknown> = {};
  try {
    const parsed: unknown = yamlParse(m[1]!);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      meta = parsed as Record<string, unknown>;
  } catch {
    /* bad front matter: treat as none */
  }
  return { meta, body: text.slice(m[0].length) };
}

/**
 * Lists the skills of a skills folder, sorted by name. Unreadable skills are skipped.
 * @param skillsDir `home.skillsDir`
 */
export function listSkills(skillsDir: string): SkillSummary[] {
  let entries: string[];
  try {
    entries = readdirSync(skillsDir);
  } catch {
    return [];
  }
  const out: SkillSummary[] = [];
  for (const dirName of entries.sort()) {
    const path = join(skillsDir, dirName, 'SKILL.md');
    try {
      const { meta, body } = parseSkillFile(readFileSync(path, 'utf8'));
      const firstLine = body.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
      const description = String(meta.description ?? firstLine)
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 300);
      out.push({ name: typeof meta.name === 'string' && meta.name ? meta.name : dirName, description, path });
    } catch {
      /* no SKILL.md */
    }
  }
  return out;
}
