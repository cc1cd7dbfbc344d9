/**
 * detectCommand when parts are missing: without the grammar (a broken install) the regex table
 * judges the whole line — its catastrophic keys are still refused — and while `SELF_RULES` is
 * empty the table's patterns about Hermes's own home run on every line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('./shell/grammar.js');
  vi.doUnmock('./rules/self.js');
  vi.resetModules();
});

describe('detectCommand without the grammar', () => {
  it('falls back to the regex table: hits without a command, catastrophic keys refused', async () => {
    vi.resetModules();
    vi.doMock('./shell/grammar.js', () => ({
      bashParser: () => Promise.reject(new Error('tree-sitter-bash.wasm not found')),
      loadedBashParser: () => undefined,
    }));
    const { detectCommand } = await import('./detect.js');
    const floor = await detectCommand('rm -rf /', { userHome: '/home/u', cwd: '/tmp' });
    expect(floor.analysis).toBeNull();
    expect(floor.floor.map((h) => [h.key, h.command])).toContainEqual(['delete-root-path', null]);
    const asked = await detectCommand('rm -rf build', { userHome: '/home/u', cwd: '/tmp' });
    expect(asked.floor).toEqual([]);
    expect(asked.hits).toEqual([
      { key: 'recursive-delete', description: 'recursive delete (rm -r)', command: null, targets: [] },
    ]);
    expect((await detectCommand('git status', {})).hits).toEqual([]);
    expect((await detectCommand('reboot', {})).floor.map((h) => h.key)).toEqual(['shutdown-reboot']);
  });
});

describe('detectCommand while SELF_RULES is empty', () => {
  it("runs the table's patterns about Hermes's home on every line", async () => {
    vi.resetModules();
    vi.doMock('./rules/self.js', () => ({ SELF_RULES: [] }));
    const { detectCommand } = await import('./detect.js');
    const d = await detectCommand('cat $HERMES_HOME/.env', { userHome: '/home/u', cwd: '/tmp' });
    expect(d.analysis?.errors).toBe(false);
    expect(d.hits.map((h) => [h.key, h.command])).toEqual([['touch-hermes-home', null]]);
    const other = await detectCommand('grep -rn "rm -rf" docs', { userHome: '/home/u', cwd: '/tmp' });
    expect(other.hits).toEqual([]);
  });
});
