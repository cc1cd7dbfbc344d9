/**
 * `/rewind files`: the session folder goes back to the oldest checkpoint of the session taken since
 * the rewound message; without one, nothing is touched.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpoint } from '@hermes/core/checkpoints';
import { HermesHome } from '@hermes/core/home';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreFilesSince } from './rewind-files.js';

let root: string;
let home: HermesHome;
let work: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-rewind-files-'));
  home = new HermesHome(join(root, 'home')).ensure();
  work = join(root, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'package.json'), '{}\n'); // a project marker: the folder is its own project
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('restoreFilesSince', () => {
  it('restores the oldest checkpoint of the session since the message, and says how to undo', async () => {
    writeFileSync(join(work, 'a.txt'), 'v1\n');
    const since = Date.now() - 2_000;
    await createCheckpoint(home, work, { reason: 'before turn 2', turn: 2, session: 's-1' });
    writeFileSync(join(work, 'a.txt'), 'v2\n');
    await createCheckpoint(home, work, { reason: 'before turn 3', turn: 3, session: 's-1' });
    writeFileSync(join(work, 'a.txt'), 'v3\n');
    writeFileSync(join(work, 'new.txt'), 'made later\n');
    const r = await restoreFilesSince(home, work, ['s-1'], since);
    expect(r.restored).toMatch(/^[0-9a-f]{7,}$/);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('v1\n');
    expect(existsSync(join(work, 'new.txt'))).toBe(false);
    expect(r.message).toContain('To undo: /rollback');
  });

  it('touches nothing when no checkpoint of the session is that recent', async () => {
    writeFileSync(join(work, 'a.txt'), 'v1\n');
    await createCheckpoint(home, work, { reason: 'other session', turn: 1, session: 's-other' });
    writeFileSync(join(work, 'a.txt'), 'v2\n');
    const r = await restoreFilesSince(home, work, ['s-1'], 0);
    expect(r.restored).toBeNull();
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('v2\n');
    const later = await restoreFilesSince(home, work, ['s-other'], Date.now() + 60_000);
    expect(later.restored).toBeNull();
  });
});
