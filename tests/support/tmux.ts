/**
 * Driving real terminals for end-to-end TUI tests: a private tmux server (its own socket, no user
 * config), windows running commands, keys sent, panes captured and polled with deadlines.
 * Ink under `CI=true` draws nothing, so TUIs started here get `CI=false` (see docs/toolchain.md).
 */
import { describe } from 'vitest';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './gateway-process.js';

/**
 * `describe` for a suite that drives tmux: run in order where tmux is installed, else skipped with
 * the reason in its title (listed by the summary reporter, never silently).
 */
export function describeTmux(title: string, suite: () => void): void {
  if (hasTmux()) describe.sequential(title, suite);
  else describe.skip(`${title} [skipped: tmux is not installed]`, suite);
}

/** Whether tmux can be run here. */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Quotes one word for `sh`. */
export function shq(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A tmux server on a socket of its own. */
export class Tmux {
  private started = false;

  constructor(
    /** Socket name (`tmux -L`), unique per test file run. */
    readonly socket: string,
    readonly size = { cols: 120, rows: 40 },
  ) {}

  /** Runs a tmux command on this server; returns its stdout. */
  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /**
   * Opens a window named `name` running `command` (an argv, quoted for `sh`) with `env`.
   * @returns the target of its pane (`hermes:name`).
   */
  open(name: string, command: string[], env: Record<string, string> = {}): string {
    const line = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v}`)), ...command.map(shq)].join(
      ' ',
    );
    const { cols, rows } = this.size;
    if (!this.started) {
      this.run('new-session', '-d', '-s', 'hermes', '-n', name, '-x', String(cols), '-y', String(rows), line);
      this.run('set-option', '-g', 'remain-on-exit', 'on');
      this.run('set-option', '-g', 'history-limit', '5000');
      this.started = true;
    } else {
      this.run('new-window', '-d', '-t', 'hermes', '-n', name, line);
    }
    return `hermes:${name}`;
  }

  /** Splits the window of `target` and runs `command` in the new pane; returns its target. */
  split(target: string, command: string[], env: Record<string, string> = {}): string {
    const line = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v}`)), ...command.map(shq)].join(
      ' ',
    );
    const id = this.run('split-window', '-d', '-v', '-P', '-F', '#{pane_id}', '-t', target, line).trim();
    return id;
  }

  /** Types `text` literally (no key names), then the given keys (e.g. `Enter`). */
  type(target: string, text: string, ...keys: string[]): void {
    if (text) this.run('send-keys', '-t', target, '-l', text);
    if (keys.length) this.run('send-keys', '-t', target, ...keys);
  }

  /** Sends key names (`Enter`, `Escape`, `C-c`, `o` …). */
  keys(target: string, ...keys: string[]): void {
    this.run('send-keys', '-t', target, ...keys);
  }

  /** The visible screen of a pane; with `scrollback`, its history too. */
  capture(target: string, scrollback = false): string {
    return this.run('capture-pane', '-p', '-J', '-t', target, ...(scrollback ? ['-S', '-'] : []));
  }

  /** Pid of the process running in a pane. */
  pid(target: string): number {
    return Number(this.run('display-message', '-p', '-t', target, '#{pane_pid}').trim());
  }

  /** Whether the pane's process has exited (the pane stays: remain-on-exit). */
  dead(target: string): boolean {
    return this.run('display-message', '-p', '-t', target, '#{pane_dead}').trim() === '1';
  }

  /**
   * Polls the pane until `test` holds for its text; returns the text.
   * @throws Error with the pane's text after `timeoutMs`.
   */
  async waitFor(
    target: string,
    test: string | RegExp | ((screen: string) => boolean),
    opts: { scrollback?: boolean; timeoutMs?: number; what?: string } = {},
  ): Promise<string> {
    const ok = (s: string): boolean =>
      typeof test === 'string' ? s.includes(test) : test instanceof RegExp ? test.test(s) : test(s);
    let last = '';
    try {
      return await waitFor(
        () => {
          last = this.capture(target, opts.scrollback ?? false);
          return ok(last) ? last : undefined;
        },
        opts.what ?? `${target} to show ${String(test)}`,
        opts.timeoutMs ?? 20_000,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- ${target} ---\n${last}`, { cause: err });
    }
  }

  /** Stops the server and everything running in it, and removes its socket file. */
  kill(): void {
    try {
      this.run('kill-server');
    } catch {
      /* not running */
    }
    const dir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
    rmSync(join(dir, this.socket), { force: true });
  }
}

/** Waits 30–80 ms: the gap between two keys a person types. */
export const humanPace = (): Promise<void> =>
  new Promise((r) => setTimeout(r, 30 + Math.floor(Math.random() * 50)));

/** Types `text` into `target` one key at a time, 30–80 ms apart (a person typing). */
export async function typeSlowly(tmux: Tmux, target: string, text: string): Promise<void> {
  for (const ch of text) {
    tmux.type(target, ch);
    await humanPace();
  }
}

/** Presses tmux key names (`Enter`, `Up` …) one at a time, 30–80 ms apart. */
export async function pressSlowly(tmux: Tmux, target: string, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    tmux.keys(target, k);
    await humanPace();
  }
}
