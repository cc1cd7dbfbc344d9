/**
 * Saved skills (`<home>/skills/<name>/SKILL.md`): their store and index. Named entry point
 * `@hermes/core/skills`: other packages import this area only through it.
 */
export * from './skill-store.js';
export * from './skills-index.js';
