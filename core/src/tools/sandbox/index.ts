/**
 * The OS sandbox of the processes tools start (docs/sandbox.md): detection, policy per lane,
 * the bubblewrap argv, and the explanation of what a sandboxed run was stopped from doing.
 */
export * from './bwrap-args.js';
export * from './classify.js';
export * from './command-sandbox.js';
export * from './detect.js';
export * from './policy.js';
export * from './report.js';
