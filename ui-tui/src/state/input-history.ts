/**
 * The composer's input history: Up/Down walk it, the draft being typed is kept aside, and it is
 * persisted per profile as JSON lines (one entry per line, so multi-line prompts survive).
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Entries kept. */
export const HISTORY_MAX = 1_000;

/** Walks a list of past inputs, newest last. */
export class InputHistory {
  private index: number;
  private draft = '';

  constructor(
    private entries: string[] = [],
    private readonly max = HISTORY_MAX,
  ) {
    this.entries = entries.slice(-max);
    this.index = this.entries.length;
  }

  /** Replaces the entries (e.g. once the profile's history file is read) and resets the walk. */
  replace(entries: string[]): void {
    this.entries = entries.slice(-this.max);
    this.reset();
  }

  /** All entries, oldest first. */
  get all(): readonly string[] {
    return this.entries;
  }

  /** Records a sent input (consecutive duplicates once) and resets the walk. */
  add(text: string): void {
    if (text.trim() && this.entries[this.entries.length - 1] !== text) {
      this.entries.push(text);
      if (this.entries.length > this.max) this.entries = this.entries.slice(-this.max);
    }
    this.reset();
  }

  /** One step back; `current` is what the composer holds (kept as the draft). Null at the oldest. */
  prev(current: string): string | null {
    if (this.index === 0) return null;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index] ?? null;
  }

  /** One step forward; returns the draft after the newest. Null when already at the draft. */
  next(): string | null {
    if (this.index >= this.entries.length) return null;
    this.index++;
    return this.index === this.entries.length ? this.draft : (this.entries[this.index] ?? null);
  }

  /** Back to the draft position. */
  reset(): void {
    this.index = this.entries.length;
    this.draft = '';
  }
}

/** Reads a history file; a missing or unreadable file is an empty history. */
export async function loadHistory(path: string, max = HISTORY_MAX): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'string') out.push(v);
    } catch {
      // a torn line from a crash: skip it
    }
  }
  if (out.length > max * 2)
    await writeFile(
      path,
      out
        .slice(-max)
        .map((e) => JSON.stringify(e) + '\n')
        .join(''),
      { mode: 0o600 },
    );
  return out.slice(-max);
}

/** Appends one entry to a history file (mode 0600; created with its folder). */
export async function appendHistory(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, JSON.stringify(text) + '\n', { mode: 0o600 });
}
