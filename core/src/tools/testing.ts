/**
 * A `ToolContext` for tests (unit tests of the tools here, and of the agent loop elsewhere).
 * Not used by production code.
 */
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
