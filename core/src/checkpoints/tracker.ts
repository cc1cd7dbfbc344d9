/**
 * When the agent takes checkpoints (the original's CheckpointManager.new_turn /
 * ensure_checkpoint): before the first file change of a turn in a working directory, once per
 * directory per turn. It is not a tool: the model never sees it.
 *
 * The agent loop owns one `CheckpointTracker`, calls `newTurn` when a user turn starts, and hands
 * `beforeFileChange` to tools through `ToolContext.beforeFileChange`. `write_file` and `patch` call
 * it with the file they are about to write; `terminal` calls it with its working directory and the
 * command, and a snapshot is taken only when the command looks like it changes files
 * (`looksFileMutating`). Each directory keeps `checkpoints.max_snapshots` checkpoints. A failure is appended to `<home>/logs/checkpoints.log` and never stops
 * the tool.
 */
import { splitAttachedText } from '../protocol/attachment-text.js';
import { appendFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, isAbsolute, resolve } from 'node:path';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { createCheckpoint, tooBroadReason } from './checkpoints.js';
import { normalizeWorkdir } from './store.js';

/** Files or folders that mark a project root (the original's list). */
export const PROJECT_MARKERS = [
  '.git',
  'package.json',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
  'Makefile',
  'pom.xml',
  '.hg',
  'Gemfile',
];

const MUTATING = [
  /(^|[\s;&|(`])(rm|rmdir|mv|cp|touch|truncate|dd|ln|unlink|chmod|tee|install|rsync|unzip|tar)\s/,
  /(^|[\s;&|(`])(sed|perl)\s+(-\w*\s+)*-\w*i/,
  /(^|[\s;&|(`])git\s+(checkout|reset|clean|restore|stash|apply|am|merge|rebase|pull|switch|rm|mv|cherry-pick|revert)\b/,
  /(^|[\s;&|(`])(npm|pnpm|yarn)\s+(install|i|add|remove|uninstall|update|ci|run\s+format|exec)\b/,
  /(^|[\s;&|(`])(prettier\s.*--write|eslint\s.*--fix|black|ruff\s+format|gofmt\s+-w)\b/,
  /(^|[^>&0-9-])>>?\s*(?!&|\/dev\/null\b)[^\s&|;]/,
];

/** True when a shell command probably changes files (deletes, moves, in-place edits, redirects…). */
export function looksFileMutating(command: string): boolean {
  return MUTATING.some((re) => re.test(command));
}

function existingAncestor(p: string): string {
  let cur = resolve(p);
  while (!existsSync(cur) && dirname(cur) !== cur) cur = dirname(cur);
  return cur;
}

const inside = (root: string, p: string): boolean => {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The directory to snapshot for a change at `path`: the nearest ancestor with a project marker
 * (never the user's home directory or above); else the session's `cwd` when `path` is inside it;
 * else the (nearest existing) folder of `path`.
 */
export function checkpointDirFor(path: string, cwd: string): string {
  const start = existingAncestor(path);
  let candidate = start;
  try {
    if (!statSync(start).isDirectory()) candidate = dirname(start);
  } catch {
    candidate = dirname(start);
  }
  candidate = normalizeWorkdir(candidate);
  const home = normalizeWorkdir(homedir());
  for (let dir = candidate; ; dir = dirname(dir)) {
    if (dir === home || inside(dir, home) || dirname(dir) === dir) break;
    if (PROJECT_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
  }
  const base = normalizeWorkdir(cwd);
  if (inside(base, candidate) && !tooBroadReason(base)) return base;
  return candidate;
}

/** Options of `CheckpointTracker`. */
export interface CheckpointTrackerOptions {
  home: HermesHome;
  config: HermesConfig;
  sessionId: string;
  /** Receives failure lines (in addition to `<home>/logs/checkpoints.log`). */
  log?: (line: string) => void;
}

/** Per-agent checkpoint state: which directories this turn already snapshotted. */
export class CheckpointTracker {
  private turn = 0;
  private prompt = '';
  private done = new Map<string, Promise<void>>();

  constructor(private readonly opts: CheckpointTrackerOptions) {}

  /** Starts a new user turn: later changes snapshot again (once per directory). */
  newTurn(prompt: string): void {
    this.turn++;
    // the label is what the user typed: attached references' content is not part of it
    this.prompt = splitAttachedText(prompt).text.replace(/\s+/g, ' ').trim().slice(0, 80);
    this.done = new Map();
  }

  /**
   * Takes this turn's snapshot of the directory that holds `path` (see `checkpointDirFor`), once
   * per directory per turn; concurrent callers wait for the same snapshot. With `info.command`
   * (terminal) only when the command looks file-mutating. Never rejects; disabled by
   * `checkpoints.enabled: false`. `info.signal` (the turn's interrupt) ends a wait for the store
   * lock: the change then goes ahead without a snapshot (logged).
   */
  beforeFileChange(
    path: string,
    cwd: string,
    info: { command?: string; signal?: AbortSignal } = {},
  ): Promise<void> {
    if (!(this.opts.config.checkpoints?.enabled ?? true)) return Promise.resolve();
    if (info.command !== undefined && !looksFileMutating(info.command)) return Promise.resolve();
    let dir: string;
    try {
      dir = checkpointDirFor(path, cwd);
    } catch (err) {
      this.fail(path, err);
      return Promise.resolve();
    }
    if (tooBroadReason(dir)) return Promise.resolve();
    const existing = this.done.get(dir);
    if (existing) return existing;
    const turn = this.turn;
    const p = createCheckpoint(
      this.opts.home,
      dir,
      {
        reason: this.prompt ? `before turn ${turn}: ${this.prompt}` : `before turn ${turn}`,
        turn,
        session: this.opts.sessionId,
      },
      { maxSnapshots: this.opts.config.checkpoints?.max_snapshots, signal: info.signal },
    ).then(
      () => undefined,
      (err: unknown) => this.fail(dir, err),
    );
    this.done.set(dir, p);
    return p;
  }

  private fail(dir: string, err: unknown): void {
    const line = `${new Date().toISOString()} checkpoint of ${dir} failed (session ${this.opts.sessionId}, turn ${this.turn}): ${err instanceof Error ? err.message : String(err)}`;
    try {
      this.opts.log?.(line);
    } catch {
      /* a logger's failure changes nothing */
    }
    try {
      mkdirSync(this.opts.home.logsDir, { recursive: true });
      appendFileSync(join(this.opts.home.logsDir, 'checkpoints.log'), `${line}\n`);
    } catch {
      /* logging is best effort */
    }
  }
}
