/**
 * Reset policies of platform sessions: when a chat's conversation starts over.
 *
 * - `idle`: after `idle_minutes` without activity;
 * - `daily`: at the first `at_hour` o'clock (in `timezone`, else the machine's zone) after the
 *   last activity;
 * - `both`: whichever comes first;
 * - `none`: never (context is managed by compression only).
 *
 * A session with running work (a turn in progress, background processes) never expires.
 * Policies resolve per platform and chat type: `platforms.<p>.reset_by_type.<type>` →
 * `platforms.<p>.reset` → `gateway.session_reset` → `DEFAULT_RESET_POLICY`, field by field.
 */
import type { ChatType } from './source.js';

/** Reset modes. */
export type ResetMode = 'idle' | 'daily' | 'both' | 'none';

/** A resolved policy. */
export interface ResetPolicy {
  mode: ResetMode;
  /** Hour of the daily reset, 0–23, wall-clock time of the configured zone. */
  atHour: number;
  /** Minutes without activity before an idle reset. */
  idleMinutes: number;
}

/** A policy as written in config.yaml (every field optional). */
export interface ResetPolicyConfig {
  mode?: ResetMode;
  at_hour?: number;
  idle_minutes?: number;
}

/** Built-in default: reset at 04:00 or after 24 h idle, whichever comes first. */
export const DEFAULT_RESET_POLICY: ResetPolicy = { mode: 'both', atHour: 4, idleMinutes: 1440 };

/** Why a session was reset automatically. */
export type ResetReason = 'idle' | 'daily';

/** The parts of a platform's config that carry reset policies. */
export interface ResetPolicySources {
  reset?: ResetPolicyConfig;
  reset_by_type?: Partial<Record<ChatType, ResetPolicyConfig | undefined>>;
}

/**
 * Resolves the policy of one platform and chat type, field by field (see the module doc).
 * @param global `gateway.session_reset`, if configured.
 */
export function resolveResetPolicy(
  platform: ResetPolicySources | undefined,
  chatType: ChatType,
  global?: ResetPolicyConfig,
): ResetPolicy {
  const layers = [platform?.reset_by_type?.[chatType], platform?.reset, global].filter(
    (l): l is ResetPolicyConfig => !!l,
  );
  const pick = <K extends keyof ResetPolicyConfig>(k: K): ResetPolicyConfig[K] =>
    layers.find((l) => l[k] !== undefined)?.[k];
  return {
    mode: pick('mode') ?? DEFAULT_RESET_POLICY.mode,
    atHour: pick('at_hour') ?? DEFAULT_RESET_POLICY.atHour,
    idleMinutes: pick('idle_minutes') ?? DEFAULT_RESET_POLICY.idleMinutes,
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    const opts: Intl.DateTimeFormatOptions = {
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    };
    try {
      f = new Intl.DateTimeFormat('en-US', { ...opts, ...(timeZone ? { timeZone } : {}) });
    } catch {
      f = new Intl.DateTimeFormat('en-US', opts); // unknown zone: the machine's
    }
    formatters.set(key, f);
  }
  return f;
}

/** Epoch ms → the same wall-clock reading expressed as if it were UTC (for day arithmetic in a zone). */
function wallClock(ms: number, timeZone: string | undefined): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return (
    Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) +
    (ms % 1000)
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The latest daily boundary at or before `now`, as wall-clock ms of the zone (see `wallClock`).
 */
function lastBoundaryWall(now: number, atHour: number, timeZone: string | undefined): number {
  const wall = wallClock(now, timeZone);
  const today = Math.floor(wall / DAY_MS) * DAY_MS + atHour * 60 * 60 * 1000;
  return wall >= today ? today : today - DAY_MS;
}

/** Options of `resetReason`. */
export interface ResetCheckOptions {
  /** IANA zone of the daily boundary (config `timezone`); empty/undefined: the machine's zone. */
  timeZone?: string;
  /** The session has running work (turn, background process): it never expires. */
  activeWork?: boolean;
}

/**
 * Whether a session whose last activity was at `lastActivity` must start over at `now`.
 * @param lastActivity,now epoch ms.
 * @returns `idle` or `daily`, or undefined to keep the session. With `both`, `idle` is reported
 *   when both apply.
 */
export function resetReason(
  policy: ResetPolicy,
  lastActivity: number,
  now: number,
  opts: ResetCheckOptions = {},
): ResetReason | undefined {
  if (opts.activeWork || policy.mode === 'none') return undefined;
  if (policy.mode === 'idle' || policy.mode === 'both') {
    if (now - lastActivity >= policy.idleMinutes * 60_000) return 'idle';
  }
  if (policy.mode === 'daily' || policy.mode === 'both') {
    const tz = opts.timeZone || undefined;
    if (wallClock(lastActivity, tz) < lastBoundaryWall(now, policy.atHour, tz)) return 'daily';
  }
  return undefined;
}
