/**
 * Ctrl+G: editing the composer's text in `$VISUAL` / `$EDITOR`. The text goes to a private temp
 * file, the editor runs with the terminal (stdio inherited) and the TUI frozen, and the file's
 * text comes back into the composer.
 *
 * Ink 6 has no suspend API, so the editor runs with `spawnSync`: the event loop stops, Ink neither
 * reads keys nor draws while the editor owns the terminal. Around it, the terminal is handed over
 * and taken back (`terminalHandover`): raw mode off, bracketed paste off, cursor shown, and the
 * editor drawn on the alternate screen, so the transcript and the live part Ink drew are intact
 * when it returns and Ink's idea of the screen stays true. Missed daemon events arrive afterwards
 * (a connection dropped meanwhile recovers by replay).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Gives the terminal to a child program and takes it back. */
export interface TerminalHandover {
  /** Before the child runs. */
  release(): void;
  /** After it exited. */
  reclaim(): void;
}

/** Result of an editing round. */
export type EditResult = { text: string } | { error: string };

/** The editor command: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * Opens `text` in the user's editor and returns what was saved. The command is run by `/bin/sh`
 * (so `EDITOR="code --wait"` works) with the file as its last argument. One trailing newline
 * (which most editors add) is dropped.
 * @returns `{error}` when the editor cannot start or exits unsuccessfully; the text is unchanged then.
 */
export function editExternally(
  text: string,
  opts: { env?: NodeJS.ProcessEnv; terminal?: TerminalHandover } = {},
): EditResult {
  const env = opts.env ?? process.env;
  const dir = mkdtempSync(join(tmpdir(), 'hermes-edit-'));
  const file = join(dir, 'message.md');
  const command = editorCommand(env);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    opts.terminal?.release();
    let r: ReturnType<typeof spawnSync>;
    try {
      r = spawnSync('/bin/sh', ['-c', `${command} "$1"`, 'hermes-editor', file], { stdio: 'inherit', env });
    } finally {
      opts.terminal?.reclaim();
    }
    if (r.error) return { error: `Could not start the editor (${command}): ${r.error.message}` };
    if (r.status !== 0) {
      const how = r.signal ? `was stopped by ${r.signal}` : `exited with ${String(r.status)}`;
      return { error: `The editor (${command}) ${how}; the message is unchanged.` };
    }
    return { text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether Ink will have turned on the kitty keyboard protocol (its `auto` mode heuristics). */
function kittyLikely(env: NodeJS.ProcessEnv): boolean {
  return (
    'KITTY_WINDOW_ID' in env ||
    env.TERM === 'xterm-kitty' ||
    env.TERM_PROGRAM === 'WezTerm' ||
    env.TERM_PROGRAM === 'ghostty'
  );
}

/**
 * The handover for the TUI's terminal. On the normal screen the editor is drawn on the alternate
 * screen (restoring the main one exactly); when the TUI itself uses the alternate screen, it is
 * cleared on return and the live part redraws on the next change.
 */
export function terminalHandover(io: {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  altScreen?: boolean;
  env?: NodeJS.ProcessEnv;
}): TerminalHandover {
  const kitty = kittyLikely(io.env ?? process.env);
  const raw = (on: boolean): void => {
    if (io.stdin.isTTY) io.stdin.setRawMode(on);
  };
  return {
    release() {
      io.stdout.write(
        // the cursor is not moved after 1049h: an editor's own 1049h/l then restores the same spot
        `\u001b[?2004l${kitty ? '\u001b[<u' : ''}\u001b[?25h${io.altScreen ? '' : '\u001b[?1049h'}`,
      );
      raw(false);
    },
    reclaim() {
      raw(true);
      const screen = io.altScreen ? '\u001b[?1049h\u001b[H\u001b[2J' : '\u001b[?1049l';
      io.stdout.write(`${screen}\u001b[?25l${kitty ? '\u001b[>1u' : ''}\u001b[?2004h`);
    },
  };
}
