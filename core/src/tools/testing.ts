/**
 * Helpers for tests (unit tests of the tools here, and of the agent loop elsewhere): a
 * `ToolContext`, tools defined outside the built-in set, the ripgrep probe. Not used by production
 * code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { defineTool, type ToolSpec } from './define.js';
import { toolJsonSchema } from './tool-schemas.js';
import type { ToolContext, ToolDefinition } from './types.js';

/**
 * `defineTool` for a tool that is not built in (so not in the generated schema table): its
 * `parameters` JSON Schema is generated from its zod schema on first access, as the generator
 * does for the built-in tools.
 */
export function defineTestTool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolDefinition {
  return defineTool(spec, () => toolJsonSchema(spec.parameters(z)));
}

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
