/**
 * The approval guard: which commands are dangerous (shell analysis and rules), the catastrophic
 * floor, allowlist entries, smart review, and the one owner of open approval requests. Named entry
 * point `@hermes/core/approvals`: other packages import this area only through it.
 */
export * from './detect.js';
export * from './guard.js';
export * from './pending.js';
export * from './permissions.js';
export * from './shell/analyze.js';
export * from './shell/words.js';
export * from './types.js';
