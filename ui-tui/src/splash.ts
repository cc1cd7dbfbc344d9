/**
 * The first frame, painted before Ink and React are loaded: the composer box and a status line,
 * exactly where (and as) the App's first frame draws them. Loading Ink, React and Yoga takes most
 * of the start-up; painting first puts the composer on screen at once.
 *
 * Keys typed meanwhile are read here (raw mode is on) and kept, in order, byte for byte: while they
 * are plain text (printable characters and Backspace) the frame's composer line shows them as
 * typed; anything else (Enter, an arrow, a paste) stops the echo but is kept all the same. When the
 * App starts reading stdin, the kept input goes back to the front of it (`unshift`), so the App's
 * composer reads it before anything typed later: nothing is lost or reordered.
 *
 * When the App is about to render, `handOff()` erases the frame line by line from where it began;
 * Ink's first frame then draws the same lines in the same place. Nothing is painted in CI (Ink
 * draws nothing there until exit) or when stdout is not a terminal.
 */
import { StringDecoder } from 'node:string_decoder';

/** A painted first frame. */
export interface Splash {
  /**
   * Erases the frame and leaves the cursor where Ink's first frame begins, and stops echoing.
   * The keys typed so far (and until the App reads stdin) go back in front of stdin when the
   * App's first `readable` listener is added (after Ink sets its encoding). Idempotent.
   */
  handOff(): void;
  /** The keys typed since the frame was painted and not yet handed off (UTF-8 text). */
  readonly typed: string;
}

/** Options of `paintSplash`. */
export interface SplashOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Profile shown in the status line (the daemon's active one when unknown). */
  profile?: string;
  env?: NodeJS.ProcessEnv;
}

const NONE: Splash = { handOff() {}, typed: '' };

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

/** East Asian wide and fullwidth characters, and emoji shown as pictures: two columns. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}\p{Emoji_Presentation}]/u;
/** Characters whose width depends on their neighbours: combining marks, joiners, selectors, skin tones. */
const JOINING = /[\p{Mn}\p{Me}\p{Cf}\u{1f3fb}-\u{1f3ff}]/u;

/**
 * Columns of one character (a code point) in the frame's composer line: 2 for East Asian wide
 * characters and emoji, 1 for others; null for a character whose width depends on its
 * neighbours (see `JOINING`).
 */
export function charColumns(ch: string): 1 | 2 | null {
  if (JOINING.test(ch)) return null;
  return WIDE.test(ch) ? 2 : 1;
}

/**
 * The text a run of keys leaves in an empty composer: printable characters in order, Backspace
 * (DEL or ^H) deleting the last one; null as soon as anything else comes (a control key, an escape
 * sequence, a character whose width depends on its neighbours), after which the frame stops
 * echoing (what was typed is kept all the same).
 */
export function echoedText(keys: string): string | null {
  const out: string[] = [];
  for (const ch of keys) {
    if (ch === '\u007f' || ch === '\b') out.pop();
    else if (ch < ' ' || (ch >= '\u0080' && ch < '\u00a0') || charColumns(ch) === null) return null;
    else out.push(ch);
  }
  return out.join('');
}

/** The composer line of the frame (`│ › text▌ │`), `width` columns; an empty `typed` shows the placeholder. */
function composerLine(width: number, typed: string, color: boolean): string {
  const sgr = (code: string, s: string): string => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const inner = width - 4; // borders and one space of padding on each side
  const cursor = '\u001b[7m \u001b[27m';
  if (typed === '') {
    // "› " + an inverse-video cursor + the placeholder, as the empty Composer draws it
    const hint = 'Type a message · / for commands'.slice(0, Math.max(0, inner - 3));
    const pad = ' '.repeat(Math.max(0, inner - 3 - hint.length));
    return `${sgr('36', '│')} ${sgr('36', '›')} ${cursor}${sgr('90', hint)}${pad} ${sgr('36', '│')}`;
  }
  // the text's last characters that fit, by columns: a line wider than the frame would wrap, and
  // the cursor moves that bring it back to the frame's first line would land a line too low
  const chars = [...typed];
  const room = Math.max(0, inner - 3);
  let used = 0;
  let from = chars.length;
  while (from > 0 && used + (charColumns(chars[from - 1]!) ?? 1) <= room) {
    from--;
    used += charColumns(chars[from]!) ?? 1;
  }
  const shown = chars.slice(from).join('');
  const pad = ' '.repeat(room - used);
  return `${sgr('36', '│')} ${sgr('36', '›')} ${shown}${cursor}${pad} ${sgr('36', '│')}`;
}

/** The frame's lines for a terminal `cols` wide (the App's Composer + StatusBar at that width). */
export function splashLines(cols: number, profile: string | undefined, color: boolean): string[] {
  const width = Math.max(20, cols);
  const sgr = (code: string, s: string): string => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const cyan = (s: string): string => sgr('36', s);
  const gray = (s: string): string => sgr('90', s);
  const yellow = (s: string): string => sgr('33', s);
  // the status line fits the width (a wrapped line would make the frame a line taller than counted):
  // the profile goes first, then "◇ idle"
  const parts: Array<[string, (s: string) => string]> = [
    ...(profile ? [[profile, cyan] as [string, (s: string) => string]] : []),
    ['◌ connecting', yellow],
    ['◇ idle', gray],
  ];
  const columns = (p: typeof parts): number =>
    p.reduce((n, [text]) => n + [...text].reduce((m, ch) => m + (charColumns(ch) ?? 1), 0), 0) +
    3 * (p.length - 1);
  while (parts.length > 1 && columns(parts) > width) parts.splice(parts.length === 3 ? 0 : 1, 1);
  const status = parts.map(([text, paint]) => paint(text)).join(gray(' · '));
  return [
    '',
    cyan(`╭${'─'.repeat(width - 2)}╮`),
    composerLine(width, '', color),
    cyan(`╰${'─'.repeat(width - 2)}╯`),
    status,
  ];
}

/**
 * Erases the `count` lines of a frame whose first line holds the cursor, line by line, and returns
 * the cursor there. Not "erase to the end of the screen": at the top left that clears the whole
 * screen, which tmux (`scroll-on-clear`, on by default) moves into the pane's history — the frame
 * would stay in the scrollback above the conversation. The way back is the saved cursor (DECSC /
 * DECRC), not "up count - 1": a frame may have fewer lines below the cursor than it was painted
 * with (a pane made shorter during start-up loses the lines below its cursor; the moves down stop
 * at the last line), and moving up as many lines as were painted would then land above the frame,
 * where Ink's first frame would overwrite what the shell printed before the TUI.
 */
export function eraseFrame(count: number): string {
  if (count <= 1) return '\r\u001b[2K';
  return `\r\u001b7\u001b[2K${'\u001b[1B\u001b[2K'.repeat(count - 1)}\u001b8`;
}

/**
 * Paints the first frame (and turns on raw mode and bracketed paste, as the App will).
 * @returns a handle to erase it, or a no-op one when nothing was painted.
 */
export function paintSplash(opts: SplashOptions): Splash {
  const env = opts.env ?? process.env;
  const { stdin, stdout } = opts;
  if (!stdout.isTTY || !stdin.isTTY || inCi(env) || env.TERM === 'dumb') return NONE;
  // a terminal narrower than the frame would wrap its lines: no frame
  if (stdout.columns > 0 && stdout.columns < 20) return NONE;
  const color = colorsOn(env);
  const width = Math.max(20, stdout.columns || 80);
  const lines = splashLines(width, opts.profile, color);
  stdin.setRawMode(true);
  // hide the cursor, bracketed paste on; the frame starts with the App's blank line
  stdout.write(`\u001b[?25l\u001b[?2004h${lines.join('\n')}\r\u001b[${lines.length - 1}A`);
  let done = false;
  let typed = '';
  let shown = '';
  const decoder = new StringDecoder('utf8');
  const onData = (data: Buffer | string): void => {
    typed += typeof data === 'string' ? data : decoder.write(data);
    const echo = done ? null : echoedText(typed);
    if (echo === null || echo === shown) return;
    shown = echo;
    // the composer line is the frame's third: down two, redraw it, back up to the frame's start
    stdout.write(`\u001b[2B\r${composerLine(width, echo, color)}\r\u001b[2A`);
  };
  stdin.on('data', onData);
  // Reading goes on (kept, no longer echoed) until the App's reader comes: Ink adds a `readable`
  // listener after `setEncoding('utf8')`. Right before it is added, the keys go back in front of
  // the stream (a string, as that encoding keeps it); adding the listener then announces them.
  // Pausing in between would stop the terminal's reads for good (a read already under way).
  const onListener = (event: string | symbol): void => {
    if (event !== 'readable') return;
    stdin.off('newListener', onListener);
    stdin.off('data', onData);
    typed += decoder.end();
    const kept = typed;
    typed = '';
    if (kept) stdin.unshift(stdin.readableEncoding ? kept : Buffer.from(kept, 'utf8'));
  };
  stdin.on('newListener', onListener);
  return {
    get typed() {
      return typed;
    },
    handOff() {
      if (done) return;
      done = true;
      stdout.write(eraseFrame(lines.length));
    },
  };
}
