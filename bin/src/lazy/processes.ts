/** What `hermes ps` needs of `@hermes/core/processes` (see README.md). */
export {
  processAlive,
  processList,
  loadBackgroundRecord,
  backgroundRecordFile,
} from '@hermes/core/processes';
