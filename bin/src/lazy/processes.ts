/** What `hermes ps` needs of `@hermes/core/processes` (see README.md). */
export {
  processAlive,
  processList,
  readBackgroundRecord,
  backgroundRecordFile,
} from '@hermes/core/processes';
