/**
 * Degenerate inputs must not make the approval check slow: the original project's worst cases
 * (its tests/tools/test_approval_detection_pattern_performance.py and
 * test_approval_global_flag_scan.py — long separator-rich text full of `echo`, runs of newlines
 * and blanks at a command position, long flag runs) and shapes that made our own parts quadratic
 * (a scan of every command of the line per command; patterns re-scanning `>>` runs and blank-line
 * runs). Deadlines are generous (the machine is shared); a quadratic regression takes many times
 * longer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectDangerousCommand, normalizeCommand, TABLE_MAX_CHARS } from './dangerous-patterns.js';
import { detectCommand } from './detect.js';
import { makeFixture, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/** Milliseconds `run` takes. */
async function timed(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

describe('detection time on degenerate input', () => {
  it('reads 256k characters of `echo hi;` in linear time', async () => {
    const line = 'echo hi; '.repeat(30_000).slice(0, 256_000);
    const ms = await timed(() => detectCommand(line, fx.at()));
    expect(ms).toBeLessThan(20_000);
  }, 60_000);

  it('finds a command after long runs of newlines, blanks and wrapper padding', async () => {
    const runs = [
      '\n'.repeat(24_000),
      ' \n'.repeat(12_000),
      '\t\n'.repeat(12_000),
      'sudo' + ' '.repeat(24_000),
    ];
    for (const run of runs) {
      let floor: string[] = [];
      const ms = await timed(async () => {
        floor = (await detectCommand(`${run}\nmkfs.ext4 /dev/sda1`, fx.at())).floor.map((h) => h.key);
      });
      expect(floor, JSON.stringify(run.slice(0, 6))).toContain('mkfs');
      expect(ms).toBeLessThan(5_000);
      const plain = await timed(() => detectCommand(`${run}x`, fx.at()));
      expect(plain).toBeLessThan(5_000);
    }
    for (const pad of ['env', 'exec']) {
      const d = await detectCommand(pad + ' '.repeat(24_000) + 'x', fx.at());
      expect(d.floor).toEqual([]);
    }
  }, 60_000);

  it('asks about a delete after 40 000 blank lines, quickly', async () => {
    const line = 'echo a' + '\n'.repeat(40_000) + 'rm -rf /tmp/x';
    let keys: string[] = [];
    const ms = await timed(async () => {
      keys = (await detectCommand(line, fx.at())).hits.map((h) => h.key);
    });
    expect(keys).toContain('recursive-delete');
    expect(ms).toBeLessThan(5_000);
  });

  it('reads long flag runs before the part that matters', async () => {
    const run = '--opt val --flag=x -q - '.repeat(58);
    const ms = await timed(async () => {
      for (const line of [
        `hermes ${run}gateway restart`,
        `docker ${run}kill app`,
        `docker compose ${run}down`,
      ])
        expect((await detectCommand(line, fx.at())).hits.length, line.slice(0, 20)).toBeGreaterThan(0);
    });
    expect(ms).toBeLessThan(5_000);
  });

  it('keeps the pattern table fast on its worst shapes, and asks past its length limit', () => {
    const shapes = [
      'echo hi; '.repeat(60_000),
      'echo a' + '\n'.repeat(40_000) + 'rm -rf /tmp/x',
      '>> '.repeat(20_000),
      'base64 -d x > y' + ' \n'.repeat(20_000),
      'curl x' + ';\n'.repeat(20_000),
      '| '.repeat(30_000),
      'env ' + 'A=1 '.repeat(20_000),
    ];
    for (const shape of shapes) {
      // the worst case the table reads in full: the longest line it accepts
      const within = shape.slice(0, TABLE_MAX_CHARS);
      const ms = (() => {
        const start = performance.now();
        detectDangerousCommand(within);
        return performance.now() - start;
      })();
      expect(ms, JSON.stringify(shape.slice(0, 12))).toBeLessThan(5_000);
      expect(detectDangerousCommand(shape).map((m) => m.key)).toEqual(
        normalizeCommand(shape).length > TABLE_MAX_CHARS ? ['unchecked-long-line'] : expect.any(Array),
      );
    }
    // the echo | tr | shell obfuscation the original timed is still caught
    expect(detectDangerousCommand("echo 'eq -pe v/' | tr 'eqv' 'rmf' | bash").map((m) => m.key)).toContain(
      'pipe-into-shell',
    );
  });
});
