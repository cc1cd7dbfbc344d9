/**
 * Where the Discord adapter stopped reading each channel, kept across restarts in one 0600 JSON
 * file of the profile's home (`<home>/platforms/discord.json`: `{"taken": {"<channel id>":
 * "<message id>"}}`): the newest message of the channel the pipeline took (accepted, refused or
 * dropped as a duplicate — any decision but "not now"). Discord replays nothing to a new gateway
 * session, so after a restart the adapter reads each channel's history after that message: what
 * was sent while the daemon was down is taken then. Written through a temporary file and a rename,
 * so a crash leaves the old or the new file; at most `MAX_CHANNELS` channels are kept (the least
 * recently heard from go first).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Most channels remembered. */
export const MAX_CHANNELS = 200;

const SNOWFLAKE = /^\d{1,20}$/;

/** Reads and writes the read positions. */
export class ReadPositionFile {
  constructor(
    readonly file: string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /**
   * The stored positions, channel id → message id, least recently updated first; empty when the
   * file is missing or unreadable (entries that are not Discord ids are skipped).
   */
  load(): Map<string, string> {
    const out = new Map<string, string>();
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { taken?: unknown };
      if (data.taken && typeof data.taken === 'object')
        for (const [c, m] of Object.entries(data.taken as Record<string, unknown>))
          if (SNOWFLAKE.test(c) && typeof m === 'string' && SNOWFLAKE.test(m)) out.set(c, m);
    } catch {
      // none yet, or unreadable: nothing to catch up on
    }
    return out;
  }

  /** Replaces the stored positions. A failure is logged (a restart then reads less history). */
  save(taken: ReadonlyMap<string, string>): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ taken: Object.fromEntries(taken) }), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (err) {
      this.log(`cannot store the channels' read positions (${this.file}): ${(err as Error).message}`);
    }
  }
}
