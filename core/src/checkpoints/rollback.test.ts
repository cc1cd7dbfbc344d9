/** `/rollback` text commands over a real shadow store. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { createCheckpoint } from './checkpoints.js';
import { runRollbackCommand } from './rollback.js';

describe('runRollbackCommand', () => {
  it('lists, diffs, restores and undoes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rollback-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const dir = join(root, 'proj');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(join(dir, 'notes.md'), 'first\n');
    expect(await runRollbackCommand(home, dir, '')).toBe(`No checkpoints for ${dir}.`);

    await createCheckpoint(home, dir, { reason: 'before turn 1: rewrite notes', turn: 1, session: 's' });
    writeFileSync(join(dir, 'notes.md'), 'second\n');

    const list = await runRollbackCommand(home, dir, 'list');
    expect(list).toMatch(/ 1\. [0-9a-f]{7,} .* · turn 1 · before turn 1: rewrite notes/);
    expect(list).toContain('1 file changed after it: notes.md');

    const diff = await runRollbackCommand(home, dir, 'diff 1');
    expect(diff).toContain('-first');
    expect(diff).toContain('+second');

    const restored = await runRollbackCommand(home, dir, '1');
    expect(restored).toContain('Written back: notes.md');
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('first\n');
    const undo = /To undo: \/rollback ([0-9a-f]{8})/.exec(restored)![1]!;
    await runRollbackCommand(home, dir, `restore ${undo}`);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('second\n');

    expect(await runRollbackCommand(home, dir, 'diff 7')).toMatch(/No checkpoint #7/);
    expect(await runRollbackCommand(home, dir, '1 ../../etc/passwd')).toMatch(/outside/);
  });
});
