/**
 * The systemd user unit that starts the daemon at login, and a start-up check
 * (`check_systemd_timing_alignment` in the original Python agent): a unit whose `TimeoutStopSec` is shorter than `gateway.drain_timeout` would have
 * systemd SIGKILL the daemon in the middle of a drain, so the daemon warns about it.
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** File name of the unit. */
export const UNIT_NAME = 'hermes-gateway.service';
/** systemd's default `TimeoutStopSec` (DefaultTimeoutStopSec), seconds. */
export const SYSTEMD_DEFAULT_STOP_TIMEOUT_S = 90;
/** Seconds the unit grants beyond the drain timeout (socket closing, persisting, exit). */
export const STOP_MARGIN_S = 15;
/** Exit status of `hermes gateway run` when another daemon already holds the root (not restarted). */
export const EXIT_ALREADY_RUNNING = 3;

/** Path of the user unit: `$XDG_CONFIG_HOME/systemd/user/hermes-gateway.service` (else ~/.config/…). */
export function unitFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME?.trim() || join(env.HOME || homedir(), '.config');
  return join(config, 'systemd', 'user', UNIT_NAME);
}

/** True when the machine runs systemd (`/run/systemd/system` exists, as sd_booted checks). */
export function hasSystemd(): boolean {
  return existsSync('/run/systemd/system');
}

/** What the unit runs. */
export interface UnitSpec {
  /** Absolute path of node. */
  node: string;
  /** Absolute path of the `hermes` script. */
  hermes: string;
  /** Root the daemon serves (set as HERMES_HOME). */
  root: string;
  /** `gateway.drain_timeout`, seconds. */
  drainTimeoutS: number;
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\])/g, '\\$1')}"`;
}

/** Text of the unit: `hermes gateway run` in the foreground, TimeoutStopSec = drain + 15 s. */
export function unitText(spec: UnitSpec): string {
  const stop = Math.ceil(spec.drainTimeoutS) + STOP_MARGIN_S;
  return [
    '# Written by `hermes gateway install`; remove with `hermes gateway uninstall`.',
    '[Unit]',
    'Description=Hermes tui-gateway daemon',
    'After=network.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${quote(spec.node)} ${quote(spec.hermes)} gateway run`,
    `Environment=${quote(`HERMES_HOME=${spec.root}`)}`,
    'Restart=on-failure',
    'RestartSec=5',
    `RestartPreventExitStatus=${EXIT_ALREADY_RUNNING}`,
    'KillMode=mixed',
    'KillSignal=SIGTERM',
    `TimeoutStopSec=${stop}`,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const UNIT_SECONDS: Record<string, number> = {
  us: 1e-6,
  usec: 1e-6,
  ms: 1e-3,
  msec: 1e-3,
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
};

/**
 * Parses a systemd time span (`90`, `90s`, `1min 30s`, `2m`, `500ms`, `infinity`) into seconds.
 * @returns seconds (Infinity for `infinity`), or undefined when unparsable.
 */
export function parseTimeSpan(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'infinity') return Infinity;
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;
  let total = 0;
  let consumed = '';
  for (const m of t.matchAll(re)) {
    const unit = UNIT_SECONDS[m[2]!];
    if (unit === undefined) return undefined;
    total += Number(m[1]) * unit;
    consumed += m[0];
  }
  return consumed.replace(/\s/g, '') === t.replace(/\s/g, '') && consumed ? total : undefined;
}

/**
 * The stop timeout a unit file gives the daemon, seconds: the last `TimeoutStopSec=` (or
 * `TimeoutSec=`) in it, else systemd's default of 90 s.
 */
export function unitStopTimeoutS(text: string): number {
  let value: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*(TimeoutStopSec|TimeoutSec)\s*=\s*(.*)$/.exec(line);
    if (m) value = parseTimeSpan(m[2]!) ?? value;
  }
  return value ?? SYSTEMD_DEFAULT_STOP_TIMEOUT_S;
}

/**
 * The start-up warning about a too short `TimeoutStopSec`, or undefined when there is no unit or it grants enough.
 * @param unitFile path of the installed unit (absent → no warning).
 * @param drainTimeoutS `gateway.drain_timeout`, seconds.
 */
export function stopTimeoutWarning(unitFile: string, drainTimeoutS: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(unitFile, 'utf8');
  } catch {
    return undefined;
  }
  const stop = unitStopTimeoutS(text);
  if (stop >= drainTimeoutS) return undefined;
  return (
    `systemd unit ${unitFile} has TimeoutStopSec=${stop}s, shorter than gateway.drain_timeout=${drainTimeoutS}s: ` +
    'systemd would SIGKILL the daemon in the middle of a drain. Re-run `hermes gateway install` ' +
    'or raise TimeoutStopSec.'
  );
}

/** Writes the unit file (creating its folder). @returns its path. */
export function writeUnit(spec: UnitSpec, file = unitFilePath()): string {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, unitText(spec), { mode: 0o644 });
  return file;
}

/** Removes the unit file. @returns false when there was none. */
export function removeUnit(file = unitFilePath()): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new Error(`cannot remove ${file}: ${(err as Error).message}`, { cause: err });
  }
}
