/**
 * The registry of approval rules, by family. Each family file documents its classes; the keys are
 * stable (allowlist entries store them). `SELF_RULES` (self.ts) are the rules about Hermes itself.
 */
import { CONTAINER_RULES } from './containers.js';
import { DELETE_RULES } from './delete.js';
import { DISK_RULES } from './disk.js';
import { FILE_RULES } from './files.js';
import { GIT_RULES } from './git.js';
import { INFRA_RULES } from './infra.js';
import { INLINE_CODE_RULES } from './inline-code.js';
import { NET_RULES } from './net.js';
import { OPTION_PROGRAM_RULES } from './option-programs.js';
import { PACKAGE_RULES } from './packages.js';
import { REMOTE_CODE_RULES } from './remote-code.js';
import { LINE_RULES } from './run-written.js';
import { SELF_RULES } from './self.js';
import { SQL_RULES } from './sql.js';
import { SYSTEM_RULES } from './system.js';
import type { CommandRule, LineRule } from './types.js';
import { WINDOWS_RULES } from './windows.js';

export { LINE_RULES, SELF_RULES };
export type { CommandRule, LineRule };

/** Every rule about one simple command, floor families first. */
export const COMMAND_RULES: readonly CommandRule[] = [
  ...DELETE_RULES,
  ...DISK_RULES,
  ...SYSTEM_RULES,
  ...FILE_RULES,
  ...GIT_RULES,
  ...PACKAGE_RULES,
  ...REMOTE_CODE_RULES,
  ...INLINE_CODE_RULES,
  ...SQL_RULES,
  ...NET_RULES,
  ...CONTAINER_RULES,
  ...INFRA_RULES,
  ...OPTION_PROGRAM_RULES,
  ...WINDOWS_RULES,
  ...SELF_RULES,
];

/** The keys of the floor rules: refused in every approval mode. */
export const FLOOR_KEYS: ReadonlySet<string> = new Set(
  [...COMMAND_RULES, ...LINE_RULES].filter((r) => r.floor).map((r) => r.key),
);

/** The rule (command or line) with this key, if any. */
export function ruleByKey(key: string): CommandRule | LineRule | undefined {
  return COMMAND_RULES.find((r) => r.key === key) ?? LINE_RULES.find((r) => r.key === key);
}
