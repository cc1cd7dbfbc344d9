/**
 * Time zones for cron: a naive time is in the configured `timezone`, default the
 * machine's. Only `Intl` is used: no time-zone database of our own.
 */

/** Thrown for a `timezone` that is not an IANA zone name. */
export class TimeZoneError extends Error {
  constructor(zone: string) {
    super(
      `timezone "${zone}" is not a known IANA time zone (e.g. "Europe/Berlin", "America/New_York", "UTC")`,
    );
    this.name = 'TimeZoneError';
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      throw new TimeZoneError(zone);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The machine's IANA zone (`UTC` when the runtime cannot tell). */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The zone cron uses: the configured one, else the machine's.
 * @param configured `config.timezone` ('' = unset).
 * @throws TimeZoneError when `configured` is not a valid zone.
 */
export function resolveTimeZone(configured: string | undefined): string {
  const zone = configured?.trim() || machineTimeZone();
  formatter(zone);
  return zone;
}

/** Wall-clock fields of an instant in a zone. */
interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTime(zone: string, epochMs: number): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Offset of `zone` from UTC at an instant, ms (Berlin in winter: +3,600,000). */
export function zoneOffsetMs(zone: string, epochMs: number): number {
  const w = wallTime(zone, epochMs);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

/**
 * The instant a wall-clock time names in a zone. In a DST gap the time is read with the offset
 * before the change (02:30 on a spring-forward day becomes 03:30); in an overlap the earlier
 * instant is taken.
 * @param month 1-12.
 */
export function wallTimeToEpoch(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millis = 0,
): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const HALF_DAY = 12 * 3_600_000;
  const before = zoneOffsetMs(zone, guess - HALF_DAY);
  const after = zoneOffsetMs(zone, guess + HALF_DAY);
  const candidates = [guess - before, guess - after].filter(
    (t, i) => zoneOffsetMs(zone, t) === (i === 0 ? before : after),
  );
  return candidates.length > 0 ? Math.min(...candidates) : guess - before;
}

/** `YYYY-MM-DD HH:MM` of an instant in a zone (for listings). */
export function formatInZone(epochMs: number, zone: string): string {
  const w = wallTime(zone, epochMs);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}
