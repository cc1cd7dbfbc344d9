/** What `hermes ps` needs of `@hermes/core/processes` (see README.md). */
export { leaderAlive, processList, readBackgroundRecord, backgroundRecordFile } from '@hermes/core/processes';
