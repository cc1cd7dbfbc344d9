/**
 * The first frame, painted before Ink and React are loaded: the composer box and a status line,
 * exactly where (and as) the App's first frame draws them. Loading Ink, React and Yoga takes most
 * of the start-up; painting first puts the composer on screen at once. Keys typed meanwhile are
 * not echoed (raw mode is on) and wait in the terminal until Ink reads them.
 *
 * When the App is about to render, `handOff()` moves back to where the frame began and erases it;
 * Ink's first frame then draws the same lines in the same place. Nothing is painted in CI (Ink
 * draws nothing there until exit) or when stdout is not a terminal.
 */

/** A painted first frame. */
export interface Splash {
  /** Erases the frame and leaves the cursor where Ink's first frame begins. Idempotent. */
  handOff(): void;
}

/** Options of `paintSplash`. */
export interface SplashOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Profile shown in the status line (the daemon's active one when unknown). */
  profile?: string;
  env?: NodeJS.ProcessEnv;
}

const NONE: Splash = { handOff() {} };

/** The same test as Ink's `is-in-ci`. */
function inCi(env: NodeJS.ProcessEnv): boolean {
  if (env.CI === '0' || env.CI === 'false') return false;
  return 'CI' in env || 'CONTINUOUS_INTEGRATION' in env || Object.keys(env).some((k) => k.startsWith('CI_'));
}

/** Whether the app's chalk will colour (NO_COLOR, FORCE_COLOR, and supports-color's CI rule). */
function colorsOn(env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return !('CI' in env);
}

/** The frame's lines for a terminal `cols` wide (the App's Composer + StatusBar at that width). */
export function splashLines(cols: number, profile: string | undefined, color: boolean): string[] {
  const width = Math.max(20, cols);
  const sgr = (code: string, s: string): string => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const cyan = (s: string): string => sgr('36', s);
  const gray = (s: string): string => sgr('90', s);
  const yellow = (s: string): string => sgr('33', s);
  const inner = width - 4; // borders and one space of padding on each side
  // "› " + an inverse-video cursor + the placeholder, as the empty Composer draws it
  const hint = 'Type a message · / for commands'.slice(0, Math.max(0, inner - 3));
  const pad = ' '.repeat(Math.max(0, inner - 3 - hint.length));
  const middle = `${cyan('›')} \u001b[7m \u001b[27m${gray(hint)}${pad}`;
  const status = [...(profile ? [cyan(profile)] : []), yellow('◌ connecting'), gray('◇ idle')].join(
    gray(' · '),
  );
  return [
    '',
    cyan(`╭${'─'.repeat(width - 2)}╮`),
    `${cyan('│')} ${middle} ${cyan('│')}`,
    cyan(`╰${'─'.repeat(width - 2)}╯`),
    status,
  ];
}

/**
 * Paints the first frame (and turns on raw mode and bracketed paste, as the App will).
 * @returns a handle to erase it, or a no-op one when nothing was painted.
 */
export function paintSplash(opts: SplashOptions): Splash {
  const env = opts.env ?? process.env;
  const { stdin, stdout } = opts;
  if (!stdout.isTTY || !stdin.isTTY || inCi(env) || env.TERM === 'dumb') return NONE;
  const color = colorsOn(env);
  const lines = splashLines(stdout.columns || 80, opts.profile, color);
  stdin.setRawMode(true);
  // hide the cursor, bracketed paste on; the frame starts with the App's blank line
  stdout.write(`\u001b[?25l\u001b[?2004h${lines.join('\n')}\r\u001b[${lines.length - 1}A`);
  let done = false;
  return {
    handOff() {
      if (done) return;
      done = true;
      stdout.write('\u001b[J'); // erase from the frame's first line down
    },
  };
}
