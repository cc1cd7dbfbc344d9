/**
 * `hermes gateway install | uninstall`: writes or removes the systemd user unit and,
 * where systemd runs, reloads and enables/disables it with `systemctl --user`; elsewhere it only
 * writes the file and says how to enable it.
 */
import { spawnSync } from 'node:child_process';
import { hasSystemd, removeUnit, UNIT_NAME, unitFilePath, writeUnit, type UnitSpec } from './systemd.js';

/** Options of `installService` / `uninstallService`. */
export interface ServiceOptions {
  /** Environment used to find the unit folder (XDG_CONFIG_HOME / HOME). */
  env?: NodeJS.ProcessEnv;
  /** Run `systemctl --user …`: `auto` (default) where systemd runs, `never` to only write the file. */
  systemctl?: 'auto' | 'never';
}

/** What was done, as lines to print. */
export interface ServiceOutcome {
  unitFile: string;
  /** True when systemctl ran (and succeeded). */
  enabled: boolean;
  messages: string[];
}

function systemctl(args: string[]): { ok: boolean; output: string } {
  const r = spawnSync('systemctl', ['--user', ...args], { encoding: 'utf8', timeout: 20_000 });
  return {
    ok: r.status === 0,
    output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim(),
  };
}

/** Writes the unit and enables it where systemd runs. @throws Error when systemctl fails. */
export function installService(spec: UnitSpec, opts: ServiceOptions = {}): ServiceOutcome {
  const file = writeUnit(spec, unitFilePath(opts.env));
  const messages = [`wrote ${file} (TimeoutStopSec covers gateway.drain_timeout=${spec.drainTimeoutS}s)`];
  if (opts.systemctl === 'never' || !hasSystemd()) {
    messages.push(
      'systemd is not running here; to enable it on a systemd machine run:',
      `  systemctl --user daemon-reload && systemctl --user enable --now ${UNIT_NAME}`,
    );
    return { unitFile: file, enabled: false, messages };
  }
  for (const args of [['daemon-reload'], ['enable', UNIT_NAME]]) {
    const r = systemctl(args);
    if (!r.ok) throw new Error(`systemctl --user ${args.join(' ')} failed: ${r.output}`);
  }
  messages.push(
    `enabled ${UNIT_NAME}: the daemon starts at login; start it now with: systemctl --user start ${UNIT_NAME}`,
  );
  return { unitFile: file, enabled: true, messages };
}

/** Disables (where systemd runs) and removes the unit. */
export function uninstallService(opts: ServiceOptions = {}): ServiceOutcome {
  const file = unitFilePath(opts.env);
  const messages: string[] = [];
  const useSystemctl = opts.systemctl !== 'never' && hasSystemd();
  if (useSystemctl) {
    const r = systemctl(['disable', UNIT_NAME]);
    if (!r.ok) messages.push(`systemctl --user disable ${UNIT_NAME}: ${r.output}`);
  }
  const removed = removeUnit(file);
  messages.push(removed ? `removed ${file}` : `no unit at ${file}`);
  if (useSystemctl) systemctl(['daemon-reload']);
  return { unitFile: file, enabled: false, messages };
}
