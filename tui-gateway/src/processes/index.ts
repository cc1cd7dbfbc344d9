/** The daemon's background processes: `process.*` methods, events, notices and stop handling. */
export {
  startProcessService,
  toProcessInfo,
  type ProcessService,
  type ProcessSessions,
} from './process-service.js';
export { ToolReapNotices } from './tool-reap-notices.js';
