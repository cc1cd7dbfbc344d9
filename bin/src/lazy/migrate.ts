/** Loaded by `hermes migrate` (and the home checks of main.ts and `hermes tui`) when they run. */
export {
  assertNotPythonHome,
  formatReport,
  migrateOffer,
  migratePythonHome,
  MigrateError,
  PythonHomeError,
  reportHasErrors,
} from '@hermes/core/migrate';
