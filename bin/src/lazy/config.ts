/** Loaded when a command needs the full config loader (YAML and zod). */
export { loadConfig } from '@hermes/core/config';
