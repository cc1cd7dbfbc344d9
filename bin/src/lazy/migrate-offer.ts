/** Loaded by main.ts and `hermes tui` for the cheap home checks (node built-ins only, no SQLite). */
export { headerUserVersion, migrateOffer } from '@hermes/core/migrate';
