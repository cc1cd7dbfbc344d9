/**
 * How the hermes command is spelled in the TUI's hints (`hermes`, or `./bin/hermes` when
 * `hermes` is not on PATH): set once by `runTui` from its options, read by whoever prints a hint.
 */

let name = 'hermes';

/** Sets the spelling (a shell word, already quoted when needed). */
export function setCommandName(command: string): void {
  name = command || 'hermes';
}

/** The spelling to print; `hermes` until set. */
export function commandName(): string {
  return name;
}
