/** Loaded by `hermes sandbox check`: detection and the report of the sandbox. */
export { detectSandbox, formatSandboxReport, sandboxReport } from '@hermes/core/tools';
