/** Loaded by `hermes checkpoints` when it runs. */
export { listCheckpoints, runRollbackCommand } from '@hermes/core/checkpoints';
