/**
 * The original's `.env` into this home's: keys this home lacks are appended as the original
 * wrote them (its own lines, byte for byte, checked to read back to the same value); keys this
 * home already has keep our value (a different one is reported as a conflict, by name only).
 * The file stays 0600. Values are never put into the report.
 */
import { parse } from 'dotenv';
import type { EnvResult } from './types.js';

/** The plan for one `.env`: the result and the new text (undefined: nothing to write). */
export interface EnvPlan {
  result: EnvResult;
  text: string | undefined;
}

const keyLine = (name: string): RegExp =>
  new RegExp(`^\\s*(?:export\\s+)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=`);

/** The source lines that define `name` (a quoted value may span lines), or undefined when none read back exactly. */
export function definitionLines(lines: readonly string[], name: string, value: string): string | undefined {
  const re = keyLine(name);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!re.test(lines[i]!)) continue;
    for (let j = i; j < Math.min(lines.length, i + 200); j++) {
      const chunk = lines.slice(i, j + 1).join('\n');
      if (parse(chunk)[name] === value) return chunk;
    }
  }
  return undefined;
}

/**
 * Plans the merge.
 * @param sourceText the original's `.env`; `targetText` this home's, or undefined.
 */
export function planEnv(sourceText: string, targetText: string | undefined): EnvPlan {
  const source = parse(sourceText);
  const target = targetText === undefined ? {} : parse(targetText);
  const lines = sourceText.split(/\r?\n/);
  const result: EnvResult = { status: 'unchanged', added: [], conflicts: [], skipped: [] };
  const chunks: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (name in target) {
      if (target[name] !== value) result.conflicts.push(name);
      continue;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      result.skipped.push({ item: name, reason: 'not a valid variable name' });
      continue;
    }
    const chunk = definitionLines(lines, name, value);
    if (chunk === undefined) {
      result.skipped.push({
        item: name,
        reason: 'its line could not be copied so that it reads back the same; add it by hand',
      });
      continue;
    }
    chunks.push(chunk);
    result.added.push(name);
  }
  if (chunks.length === 0) return { result, text: undefined };
  result.status = 'written';
  const base = targetText ?? '';
  const sep = base === '' || base.endsWith('\n') ? '' : '\n';
  return {
    result,
    text: `${base}${sep}# brought from the Python Hermes by hermes migrate\n${chunks.join('\n')}\n`,
  };
}
