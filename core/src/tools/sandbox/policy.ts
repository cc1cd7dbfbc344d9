/**
 * Which sandbox policy a session runs under: its lane (from the session's source), the lane's
 * mode from `terminal.sandbox`, the network and the fallback when the sandbox cannot run here.
 *
 * Lanes: `tui` (sources `tui`, `cli`), `cron`, `api` (`api_server`), `platforms` (every other
 * source: a chat platform's name, `gateway`). A sub-agent runs in its parent's lane.
 *
 * Defaults when `terminal.sandbox` leaves a lane out: `tui` off; `platforms`, `cron` and `api`
 * `workspace` when the sandbox can run here, else off (as before the sandbox existed) — a lane the
 * config names explicitly *needs* the sandbox, and then `terminal.sandbox_fallback` decides.
 */
import type { HermesConfig } from '../../config/schema.js';

/** The sandbox modes: `off` (bare host), `workspace`, `strict` (see docs/sandbox.md). */
export type SandboxMode = 'off' | 'workspace' | 'strict';

/** The four lanes a session's source maps to. */
export type SandboxLane = 'tui' | 'platforms' | 'cron' | 'api';

/** Every lane, in the order of `terminal.sandbox`'s object form. */
export const SANDBOX_LANES: readonly SandboxLane[] = ['tui', 'platforms', 'cron', 'api'];

/** The lane of a session whose stored source is `source` (see the file comment). */
export function laneOfSource(source: string | null | undefined): SandboxLane {
  switch (source) {
    case 'tui':
    case 'cli':
      return 'tui';
    case 'cron':
      return 'cron';
    case 'api_server':
      return 'api';
    default:
      return 'platforms';
  }
}

/** What to do when the policy needs the sandbox and this machine cannot run it. */
export type SandboxFallback = 'refuse' | 'ask';

/** The policy of one lane, resolved. */
export interface SandboxPolicy {
  lane: SandboxLane;
  /** The mode in force (`off` also when a default lane found no sandbox). */
  mode: SandboxMode;
  /** Network reachable from sandboxed commands (always false in `strict`). */
  network: boolean;
  /** True when the config set this lane's mode (not a default). */
  explicit: boolean;
  /** When `mode` is not off and the sandbox cannot run: refuse, or ask the user once. */
  fallback: SandboxFallback;
}

/**
 * Resolves the policy of `lane` from `config.terminal` (`sandbox`, `network`,
 * `sandbox_fallback`); `available` says whether the sandbox can run here (detect.ts), asked only
 * when a lane's default depends on it.
 */
export function resolveSandboxPolicy(
  config: HermesConfig,
  lane: SandboxLane,
  available: boolean | (() => boolean),
): SandboxPolicy {
  const t = config.terminal;
  const setting = t.sandbox;
  const configured: SandboxMode | undefined =
    setting === undefined ? undefined : typeof setting === 'string' ? setting : setting[lane];
  let mode: SandboxMode;
  if (configured !== undefined) mode = configured;
  else if (lane === 'tui') mode = 'off';
  else mode = (typeof available === 'function' ? available() : available) ? 'workspace' : 'off';
  const fallback: SandboxFallback = t.sandbox_fallback ?? (lane === 'tui' ? 'ask' : 'refuse');
  return {
    lane,
    mode,
    network: mode !== 'strict' && t.network === 'on',
    explicit: configured !== undefined,
    fallback,
  };
}
