/**
 * What the Matrix adapter keeps across restarts, in one 0600 JSON file of the profile's home
 * (`<home>/platforms/matrix.json`): the `since` token of the last /sync whose events were all
 * taken by the pipeline, and the encrypted rooms already told that encryption is not supported.
 * Written through a temporary file and a rename, so a crash leaves the old or the new state.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The stored state. */
export interface SyncState {
  /** `next_batch` of the last fully taken /sync. */
  since?: string;
  /** Encrypted rooms already given the notice. */
  noticed: string[];
}

/** Reads and writes the state file. */
export class SyncStateFile {
  constructor(readonly file: string) {}

  /** The stored state; empty when the file is missing or unreadable. */
  load(): SyncState {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { since?: unknown; noticed?: unknown };
      return {
        ...(typeof data.since === 'string' && data.since ? { since: data.since } : {}),
        noticed: Array.isArray(data.noticed)
          ? data.noticed.filter((r): r is string => typeof r === 'string')
          : [],
      };
    } catch {
      return { noticed: [] };
    }
  }

  /** Replaces the stored state. @throws the file system's error. */
  save(state: SyncState): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
