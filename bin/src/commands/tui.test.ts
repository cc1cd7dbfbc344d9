import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonSeemsRunning, plainTuiArgs } from './tui.js';

describe('plainTuiArgs (the fast path of `hermes tui`)', () => {
  it('takes bare `hermes` and `hermes tui` with the TUI’s own options', () => {
    expect(plainTuiArgs([])).toEqual({});
    expect(plainTuiArgs(['tui'])).toEqual({});
    expect(plainTuiArgs(['tui', '--new'])).toEqual({ new: true });
    expect(plainTuiArgs(['-n'])).toEqual({ new: true });
    expect(plainTuiArgs(['tui', '-c'])).toEqual({ continue: true });
    expect(plainTuiArgs(['tui', '--session', 'my title'])).toEqual({ session: 'my title' });
    expect(plainTuiArgs(['tui', '-s', '20260101_120000_abcdef'])).toEqual({
      session: '20260101_120000_abcdef',
    });
    expect(plainTuiArgs(['tui', '--session=x'])).toEqual({ session: 'x' });
  });

  it('leaves everything else to yargs: help, other commands, unknown or conflicting options', () => {
    for (const argv of [
      ['--help'],
      ['tui', '--help'],
      ['chat', '-q', 'hi'],
      ['gateway', 'start'],
      ['tui', '--bogus'],
      ['tui', '--session'],
      ['tui', '--new', '--continue'],
      ['tui', '-s', 'x', '-n'],
      ['tui', 'extra'],
    ]) {
      expect(plainTuiArgs(argv), argv.join(' ')).toBeNull();
    }
  });
});

describe('daemonSeemsRunning', () => {
  const root = (): string => mkdtempSync(join(tmpdir(), 'hermes-tui-cmd-'));

  it('is false without a discovery file, with a bad one, or for a dead pid', () => {
    const r = root();
    expect(daemonSeemsRunning(r)).toBe(false);
    writeFileSync(join(r, 'tui-gateway.json'), 'not json');
    expect(daemonSeemsRunning(r)).toBe(false);
    writeFileSync(join(r, 'tui-gateway.json'), JSON.stringify({ pid: 2 ** 22 + 12345, port: 1 }));
    expect(daemonSeemsRunning(r)).toBe(false);
  });

  it('needs the pid to be a gateway process on Linux (a reused pid is not the daemon)', async () => {
    const r = root();
    writeFileSync(join(r, 'tui-gateway.json'), JSON.stringify({ pid: process.pid, port: 1 }));
    expect(daemonSeemsRunning(r)).toBe(process.platform !== 'linux');
    // a process whose command line names the gateway
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)', 'gateway', 'run']);
    try {
      writeFileSync(join(r, 'tui-gateway.json'), JSON.stringify({ pid: child.pid, port: 1 }));
      expect(daemonSeemsRunning(r)).toBe(true);
    } finally {
      child.kill();
    }
  });
});
