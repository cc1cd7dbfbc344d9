/**
 * Test helpers of the sandbox: `describeBwrap` runs a suite only where bwrap can start a sandbox,
 * and otherwise skips it with the reason in its title (never silently).
 */
import { describe } from 'vitest';
import { detectSandbox } from './detect.js';

/** Why bwrap tests cannot run here, or undefined when they can. */
export function bwrapSkipReason(): string | undefined {
  const s = detectSandbox();
  return s.available ? undefined : (s.reason ?? 'bwrap cannot run here');
}

/** `describe` for suites that need a working bwrap; skipped with the reason in the title otherwise. */
export function describeBwrap(title: string, suite: () => void): void {
  const reason = bwrapSkipReason();
  if (reason === undefined) describe(title, suite);
  else describe.skip(`${title} [skipped: ${reason}]`, suite);
}
