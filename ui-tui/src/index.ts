/**
 * `@hermes/ui-tui`: the Ink terminal UI of Hermes. `runTui` is what `hermes tui` calls (through
 * the light `@hermes/ui-tui/run` entry, which paints the first frame before Ink loads); it assumes
 * the daemon is running (its discovery file exists under the root).
 */

export { App, type AppProps } from './app/App.js';
export { SessionController, type ControllerOptions } from './app/controller.js';
export type { StartTarget } from './app/start-target.js';
export { DaemonNotRunningError, historyPath, runTui, type RunTuiOptions } from './run.js';
export { startTui } from './app/start.js';
