/**
 * A `ToolContext` for tests (unit tests of the tools here, and of the agent loop elsewhere).
 * Not used by production code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import type { ToolContext } from './types.js';

/**
 * Builds a context rooted in `root` (an existing temp folder): home `<root>/home` (created),
 * cwd `<root>/work` (created), default config, no secrets, a guard that allows every command and
 * script, no
 * clarify callback, an empty task list, progress ignored. Anything can be overridden.
 */
export function makeToolContext(root: string, overrides: Partial<ToolContext> = {}): ToolContext {
  const home = overrides.home ?? new HermesHome(join(root, 'home')).ensure();
  const cwd = overrides.cwd ?? join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  return {
    home,
    config: defaultConfig(),
    secrets: {},
    sessionId: 'test-session',
    cwd,
    signal: new AbortController().signal,
    checkCommand: async () => ({ allowed: true, reason: 'safe' }),
    checkScript: async () => ({ allowed: true, reason: 'approved' }),
    todos: [],
    progress: () => {},
    ...overrides,
  };
}

let ripgrep: boolean | undefined;

/**
 * True when `rg --version` runs (probed once, synchronously, so tests can `it.skipIf` on it).
 * Tests of the ripgrep engine skip without it and say so in their title.
 */
export function ripgrepInstalled(): boolean {
  ripgrep ??= spawnSync('rg', ['--version'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return ripgrep;
}

/** The suffix of a test title that skips without ripgrep: tells why when it is missing. */
export function ripgrepSkipNote(): string {
  return ripgrepInstalled() ? '' : ' [skipped: ripgrep (rg) is not installed]';
}
