/** Loaded with `import()` when `/rollback` runs; see lazy-mcp.ts for why not the entry point itself. */
export { runRollbackCommand } from '@hermes/core/checkpoints';
