/**
 * The old `command_allowlist` strings that approved a whole class of commands: a bare rule key
 * (`recursive-delete`, what `always` used to write) or a rule's description (what the original
 * agent stored). They are kept in config.yaml but no longer approve anything; these helpers name
 * them so `hermes config check`, `hermes chat`, the daemon's log and `/permissions` can say so.
 */
import { classEntryWarning, classifyAllowlistEntry, type KnownClasses } from './allowlist-entry.js';
import { DANGEROUS_PATTERNS } from './dangerous-patterns.js';
import { COMMAND_RULES, LINE_RULES } from './rules/index.js';
import { EXECUTE_CODE_KEY } from './types.js';

const RULES = [...COMMAND_RULES, ...LINE_RULES];

/**
 * The rule keys and descriptions old lists may hold: those of the old regex table and of every
 * rule of the registry (rules/index.ts), so a key or description of any rule, in any case, is a
 * class entry (approves nothing) and is warned about.
 */
export const LEGACY_CLASSES: KnownClasses = {
  keys: [...new Set([...DANGEROUS_PATTERNS.map((p) => p.key), ...RULES.map((r) => r.key), EXECUTE_CODE_KEY])],
  descriptions: [
    ...new Set([...DANGEROUS_PATTERNS.map((p) => p.description), ...RULES.map((r) => r.description)]),
  ],
};

/** The strings of `list` that are old class entries, in list order. */
export function classEntries(list: readonly string[]): string[] {
  return list.filter((text) => classifyAllowlistEntry(text, LEGACY_CLASSES).kind === 'class');
}

/** One warning line per old class entry of `list` (see `classEntryWarning`). */
export function classEntryWarnings(list: readonly string[]): string[] {
  return classEntries(list).map(classEntryWarning);
}
