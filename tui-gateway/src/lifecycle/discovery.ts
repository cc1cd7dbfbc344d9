/**
 * The discovery file `<root>/tui-gateway.json`: how
 * clients find the daemon. Mode 0600 (it holds the token); written atomically (temp file +
 * rename) once the daemon listens; removed on clean exit. A file whose pid is dead (or reused) is
 * stale: clients treat the daemon as not running, the next start replaces it.
 */
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isSameProcessAlive } from '@hermes/client';

/** Contents of the discovery file. */
export const DiscoveryInfo = z.object({
  pid: z.number().int().positive(),
  /** Process start time (Linux clock ticks), to detect pid reuse. */
  proc_start: z.string().optional(),
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(1).max(65535),
  /** Bearer token for the WebSocket upgrade: 32 random bytes, hex. */
  token: z.string().min(16),
  version: z.string(),
  /** Random per daemon start. */
  epoch: z.string(),
  /** ISO time the daemon started. */
  started_at: z.string(),
});
export type DiscoveryInfo = z.infer<typeof DiscoveryInfo>;

/** What is at the discovery path. */
export type DiscoveryState =
  | { state: 'absent' }
  /** Unreadable JSON or a missing/bad field; `error` names the file and field. */
  | { state: 'invalid'; error: string }
  /** Well-formed, but its process is gone. */
  | { state: 'stale'; info: DiscoveryInfo }
  /** Well-formed and its process runs (it may still be starting or stopping). */
  | { state: 'alive'; info: DiscoveryInfo };

/** Writes the file atomically with mode 0600. @throws Error naming the file on I/O failure. */
export function writeDiscovery(file: string, info: DiscoveryInfo): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600); // in case a umask or ACL widened it
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* not created */
    }
    throw new Error(`cannot write discovery file ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** Reads and classifies the discovery file (never throws). */
export function inspectDiscovery(file: string): DiscoveryState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'invalid', error: `cannot read ${file}: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { state: 'invalid', error: `${file} is not valid JSON: ${(err as Error).message}` };
  }
  const parsed = DiscoveryInfo.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      state: 'invalid',
      error: `${file}: field "${issue.path.join('.') || '(root)'}": ${issue.message}`,
    };
  }
  return isSameProcessAlive(parsed.data)
    ? { state: 'alive', info: parsed.data }
    : { state: 'stale', info: parsed.data };
}

/**
 * Removes the discovery file, but only when it is ours (same epoch) or when `epoch` is omitted.
 * @returns true when a file was removed.
 */
export function removeDiscovery(file: string, epoch?: string): boolean {
  if (epoch !== undefined) {
    const now = inspectDiscovery(file);
    if (now.state === 'absent') return false;
    if ((now.state === 'alive' || now.state === 'stale') && now.info.epoch !== epoch) return false;
  }
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}
