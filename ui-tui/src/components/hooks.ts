/** Small React hooks shared by the components. */
import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

/** The terminal width in columns, updated on resize. */
export function useColumns(fallback = 80): number {
  const { stdout } = useStdout();
  const [cols, setCols] = useState(stdout.columns || fallback);
  useEffect(() => {
    const onResize = (): void => setCols(stdout.columns || fallback);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fallback]);
  return cols;
}

/** The terminal height in rows, updated on resize. */
export function useRows(fallback = 24): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(stdout.rows || fallback);
  useEffect(() => {
    const onResize = (): void => setRows(stdout.rows || fallback);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fallback]);
  return rows;
}

/** The current time, re-read every `intervalMs` while `active` (for elapsed times, countdowns). */
export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs, active]);
  return now;
}

/**
 * A value that follows `value` at most once every `ms` (leading and trailing edge): a fast stream
 * of changes re-renders ~1000/ms times a second instead of once per change. `ms <= 0` returns
 * `value` itself, with no render of its own (the caller paces the changes).
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    if (ms <= 0 || Object.is(value, shown)) return;
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setShown(value);
      return;
    }
    const t = setTimeout(() => {
      last.current = Date.now();
      setShown(latest.current);
    }, wait);
    return () => clearTimeout(t);
  }, [value, shown, ms]);
  return ms <= 0 ? value : shown;
}
