/**
 * Zod-free values of the wire protocol (approval choices and timing, limits): what a UI may import
 * at run time without loading zod.
 */
export * from './protocol/approval-arming.js';
export * from './protocol/approval-choices.js';
export * from './protocol/attachment-label.js';
export * from './protocol/constants.js';
export * from './protocol/limits.js';
export * from './protocol/slash-commands.js';
export * from './protocol/tool-display.generated.js';
export * from './protocol/attachment-text.js';
export * from './protocol/cost-label.js';
export * from './protocol/status-line.js';
export * from './protocol/terminal-controls.js';
