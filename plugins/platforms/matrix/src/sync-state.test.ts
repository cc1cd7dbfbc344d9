import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncStateFile } from './sync-state.js';

describe('SyncStateFile', () => {
  it('round-trips 0600 and reads a broken file as empty', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hermes-mxs-')), 'platforms', 'matrix.json');
    const st = new SyncStateFile(file);
    expect(st.load()).toEqual({ noticed: [] });
    st.save({ since: 's12', noticed: ['!r:x'] });
    expect(st.load()).toEqual({ since: 's12', noticed: ['!r:x'] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '{not json');
    expect(st.load()).toEqual({ noticed: [] });
  });
});
