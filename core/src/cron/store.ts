/**
 * The jobs store `<home>/cron/jobs.json`.
 *
 * - Every change runs under an exclusive file lock (`jobs.json.lock`, proper-lockfile: an mkdir
 *   lock refreshed while held and taken over when stale after a crash), re-reads the file, applies
 *   the change and writes it back atomically: temp file, fsync, rename, mode 0600.
 * - Readers need no lock: a rename replaces the file whole, so a reader sees the old or the new
 *   list, never a mix.
 * - A file that is not valid JSON or not a job list is corrupt: reading reports it with
 *   `CronStoreCorruptError`; a change asked for by the user (`repairCorrupt`) first moves it aside
 *   to `jobs.json.corrupt-<time>` and still fails, naming both paths, so nothing is ever emptied
 *   silently. The ticker never moves it (every tick fails until the user acts; `hermes cron
 *   status` shows why).
 * - The file is written one job per line. The tick's `mutateSelected` uses that: it scans the raw
 *   bytes, parses only the lines a cheap test selects (due or running jobs), and writes the other
 *   lines back byte for byte, so deciding over 10,000 jobs stays far below 50 ms. A file in any
 *   other shape (hand-edited, pretty-printed) takes the full parse instead.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { CronJob, JobsFile } from './types.js';
import { iso } from './types.js';

/** The jobs file is not a job list. */
export class CronStoreCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    /** Where the file was moved, when it was. */
    readonly movedTo?: string,
  ) {
    super(
      movedTo
        ? `cron jobs file ${file} was corrupt (${reason}); it was moved to ${movedTo} and nothing was changed. ` +
            `Run the command again to start a new job list, or repair ${movedTo} and move it back.`
        : `cron jobs file ${file} is corrupt (${reason}); it was left as it is. ` +
            `Repair it, or run "hermes cron list" after moving it away.`,
    );
    this.name = 'CronStoreCorruptError';
  }
}

/** The lock could not be taken within the wait budget. */
export class CronStoreBusyError extends Error {
  constructor(file: string) {
    super(`cron jobs file ${file} is locked by another process; try again`);
    this.name = 'CronStoreBusyError';
  }
}

/** A lock older than this is taken over (its holder died), ms. */
export const STORE_LOCK_STALE_MS = 10_000;

/** Options of one change. */
export interface MutateOptions {
  /** Move a corrupt file aside (then still fail). User-initiated changes set it; the ticker does not. */
  repairCorrupt?: boolean;
}

/** What a change function gets besides the jobs. */
export interface MutateTx {
  /** Call when nothing changed: the file is not rewritten. */
  unchanged(): void;
}

/** The value of every optional job field when a file (or a test) leaves it out. */
export const jobDefaults = (): Omit<CronJob, 'id' | 'prompt' | 'schedule'> => ({
  name: '',
  skills: [],
  model: null,
  schedule_display: '',
  repeat: { times: null, completed: 0 },
  enabled: true,
  state: 'scheduled',
  paused_at: null,
  created_at: iso(0),
  next_run_at: null,
  last_run_at: null,
  last_status: null,
  last_error: null,
  last_delivery_error: null,
  deliver: ['local'],
  origin: null,
  cwd: null,
  running: null,
});

/**
 * Parses the file's text into jobs, filling defaults for missing optional fields (hand-edited
 * files). Accepts `{jobs: [...]}` and a bare array (older files), with or without a leading UTF-8 BOM.
 * @throws Error with the reason when it is not a job list.
 */
export function parseJobsText(text: string): CronJob[] {
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // a BOM from a Windows editor
  } catch (err) {
    throw new Error(`not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const list = Array.isArray(data) ? data : (data as { jobs?: unknown } | null)?.jobs;
  if (!Array.isArray(list)) throw new Error('no "jobs" array');
  return list.map((raw, i) => normalizeJob(raw, i));
}

/**
 * Checks one parsed job and fills defaults for missing optional fields (hand-edited files, older
 * versions). A job without an `id` gets one derived from its content (stable until the file is
 * written, which stores it); a missing or null `prompt`, `name`, `schedule_display` or `skills`
 * reads as empty (the name as the id), so one partial record never takes its siblings down.
 * @throws Error naming the job when it is not an object or has no usable `schedule`.
 */
export function normalizeJob(raw: unknown, i: number): CronJob {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`jobs[${i}] is not an object`);
  const j = raw as Partial<CronJob>;
  const id = typeof j.id === 'string' && j.id ? j.id : derivedId(raw);
  if (!j.schedule || typeof j.schedule !== 'object' || typeof j.schedule.kind !== 'string') {
    throw new Error(`job ${typeof j.id === 'string' && j.id ? j.id : `jobs[${i}]`} has no "schedule"`);
  }
  const { name, ...defaults } = jobDefaults();
  const job = { name, ...defaults, ...j, id, schedule: j.schedule } as CronJob;
  if (typeof job.prompt !== 'string') job.prompt = '';
  if (typeof job.name !== 'string' || !job.name) job.name = job.id;
  if (typeof job.schedule_display !== 'string') job.schedule_display = '';
  if (!Array.isArray(job.skills)) job.skills = [];
  if (!Array.isArray(job.deliver)) job.deliver = typeof job.deliver === 'string' ? [job.deliver] : ['local'];
  if (!job.repeat || typeof job.repeat !== 'object') job.repeat = { times: null, completed: 0 };
  return job;
}

/** 12 hex chars from a record's JSON: the id of a job stored without one. */
const derivedId = (raw: unknown): string =>
  createHash('sha256').update(JSON.stringify(raw)).digest('hex').slice(0, 12);

const headerLine = (now: number): string =>
  `${JSON.stringify({ version: 1, updated_at: iso(now) } satisfies Omit<JobsFile, 'jobs'>).slice(0, -1)},"jobs":[`;

/** Serialises jobs as the file stores them: one job per line, so the tick can skip most of them. */
export function renderJobsFile(jobs: readonly CronJob[], now: number): string {
  const body = jobs.map((j) => `  ${JSON.stringify(j)}`).join(',\n');
  return `${headerLine(now)}${jobs.length ? `\n${body}\n` : ''}]}\n`;
}

const NL = 0x0a;
const HEAD_RE = /^\{"version":1,"updated_at":"[^"]*","jobs":\[$/;

/**
 * Byte ranges of the job lines of a file in the canonical shape (`renderJobsFile` with at least
 * one job); undefined for any other shape. JSON escapes newlines inside strings, so a raw newline
 * only ever ends a line.
 */
export function canonicalJobLines(buf: Buffer): Array<[number, number]> | undefined {
  const first = buf.indexOf(NL);
  if (first < 0 || !HEAD_RE.test(buf.toString('utf8', 0, first))) return undefined;
  const ranges: Array<[number, number]> = [];
  for (let start = first + 1; ;) {
    const end = buf.indexOf(NL, start);
    if (end < 0) return undefined;
    if (end - start === 2 && buf[start] === 0x5d && buf[start + 1] === 0x7d)
      return end === buf.length - 1 && ranges.length > 0 ? ranges : undefined; // "]}" closes the file
    const last = buf[end - 1] === 0x2c ? end - 2 : end - 1; // "}," or "}"
    if (buf[start] !== 0x20 || buf[start + 1] !== 0x20 || buf[start + 2] !== 0x7b || buf[last] !== 0x7d)
      return undefined;
    ranges.push([start + 2, last + 1]);
    start = end + 1;
  }
}

/** The jobs file of one home. Cheap to construct; holds no open handles. */
export class CronStore {
  readonly file: string;
  private readonly lockTarget: string;

  constructor(
    readonly home: HermesHome,
    private readonly clock: () => number = Date.now,
  ) {
    this.file = home.cronJobsFile;
    this.lockTarget = home.cronJobsFile;
  }

  /**
   * The jobs as stored now (no lock: see the module doc). A missing file is an empty list.
   * @throws CronStoreCorruptError when the file is corrupt (it is not moved).
   */
  read(): CronJob[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    try {
      return parseJobsText(text);
    } catch (err) {
      throw new CronStoreCorruptError(this.file, (err as Error).message);
    }
  }

  /**
   * Applies a change under the lock and writes the file (unless `tx.unchanged()` was called).
   * @returns what `fn` returns.
   * @throws CronStoreCorruptError (after moving the file aside when `repairCorrupt`),
   *   CronStoreBusyError when the lock stays taken (~15 s), or whatever `fn` throws (nothing is
   *   written then).
   */
  async mutate<T>(fn: (jobs: CronJob[], tx: MutateTx) => T, opts: MutateOptions = {}): Promise<T> {
    const release = await this.lock();
    try {
      const jobs = this.readLocked(opts);
      let changed = true;
      const result = fn(jobs, { unchanged: () => void (changed = false) });
      if (changed) writeFileAtomic(this.file, renderJobsFile(jobs, this.clock()), 0o600);
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }

  /**
   * Like `mutate`, for changes that touch few jobs in place (the tick): in a canonical file only
   * the lines `select` picks are parsed and handed to `fn`, and only they are re-serialised; the
   * bytes in between are copied unchanged. For a file in another shape `fn` gets every job, so
   * it must leave jobs it does not care about alone.
   * @param select picks job lines cheaply from the raw bytes: `ranges[i]` is the `[start, end)`
   *   of line i's JSON in `buf`; returns the picked line indices in ascending order.
   * @throws as `mutate`; Error when `fn` adds or removes jobs.
   */
  async mutateSelected<T>(
    select: (buf: Buffer, ranges: ReadonlyArray<readonly [number, number]>) => number[],
    fn: (jobs: CronJob[], tx: MutateTx) => T,
    opts: MutateOptions = {},
  ): Promise<T> {
    const release = await this.lock();
    try {
      let buf: Buffer | undefined;
      try {
        buf = readFileSync(this.file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const ranges = buf ? canonicalJobLines(buf) : undefined;
      let changed = true;
      const tx: MutateTx = { unchanged: () => void (changed = false) };
      if (!buf || !ranges) {
        const jobs = this.readLocked(opts);
        const count = jobs.length;
        const result = fn(jobs, tx);
        if (jobs.length !== count) throw new Error('mutateSelected: jobs may only be changed in place');
        if (changed && buf) writeFileAtomic(this.file, renderJobsFile(jobs, this.clock()), 0o600);
        return result;
      }
      const picked = select(buf, ranges);
      const jobs = picked.map((i) => {
        const [a, b] = ranges[i]!;
        try {
          return normalizeJob(JSON.parse(buf.toString('utf8', a, b)), i);
        } catch (err) {
          throw this.corrupt(`line ${i + 2}: ${(err as Error).message}`, opts);
        }
      });
      const result = fn(jobs, tx);
      if (jobs.length !== picked.length) throw new Error('mutateSelected: jobs may only be changed in place');
      if (changed && picked.length > 0) {
        const parts: Buffer[] = [Buffer.from(headerLine(this.clock()))];
        let from = buf.indexOf(NL); // the header's newline onwards is copied
        picked.forEach((lineIndex, k) => {
          const [a, b] = ranges[lineIndex]!;
          parts.push(buf.subarray(from, a), Buffer.from(JSON.stringify(jobs[k])));
          from = b;
        });
        parts.push(buf.subarray(from));
        writeFileAtomic(this.file, Buffer.concat(parts), 0o600);
      }
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** Reads under the lock; a corrupt file is moved aside when `repairCorrupt`. */
  private readLocked(opts: MutateOptions): CronJob[] {
    try {
      return this.read();
    } catch (err) {
      if (err instanceof CronStoreCorruptError) throw this.corrupt(err.reason, opts);
      throw err;
    }
  }

  private corrupt(reason: string, opts: MutateOptions): CronStoreCorruptError {
    if (opts.repairCorrupt && existsSync(this.file)) {
      const aside = `${this.file}.corrupt-${iso(this.clock()).replace(/[:.]/g, '-')}`;
      renameSync(this.file, aside);
      return new CronStoreCorruptError(this.file, reason, aside);
    }
    return new CronStoreCorruptError(this.file, reason);
  }

  private async lock(): Promise<() => Promise<void>> {
    mkdirSync(this.home.cronDir, { recursive: true });
    try {
      return await lockfile.lock(this.lockTarget, {
        realpath: false,
        stale: STORE_LOCK_STALE_MS,
        retries: { retries: 300, factor: 1, minTimeout: 50, maxTimeout: 50, randomize: true },
        onCompromised: () => {
          /* another process took over after we stalled: our write already happened or will fail */
        },
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new CronStoreBusyError(this.file);
      throw err;
    }
  }
}
