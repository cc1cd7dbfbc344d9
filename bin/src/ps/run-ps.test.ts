import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPs } from './run-ps.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-ps-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('hermes ps without a daemon', () => {
  it('says that the record is damaged, naming the file, instead of listing nothing', async () => {
    mkdirSync(join(root, 'run'), { recursive: true });
    const file = join(root, 'run', 'background-processes.json');
    writeFileSync(file, '[{"id": "bg-1234');
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    await runPs({ home: new HermesHome(root, 'default'), version: 'test' }, { json: false });
    expect(out).toContain('The daemon is not running');
    expect(err).toContain(`cannot read ${file}`);
  });
});
