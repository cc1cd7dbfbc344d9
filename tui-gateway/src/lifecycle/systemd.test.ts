import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTimeSpan, stopTimeoutWarning, unitFilePath, unitStopTimeoutS, unitText } from './systemd.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-systemd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('systemd unit', () => {
  it('parses systemd time spans', () => {
    expect(parseTimeSpan('90')).toBe(90);
    expect(parseTimeSpan('45s')).toBe(45);
    expect(parseTimeSpan('1min 30s')).toBe(90);
    expect(parseTimeSpan('2m')).toBe(120);
    expect(parseTimeSpan('500ms')).toBe(0.5);
    expect(parseTimeSpan('1h')).toBe(3600);
    expect(parseTimeSpan('infinity')).toBe(Infinity);
    expect(parseTimeSpan('soon')).toBeUndefined();
    expect(parseTimeSpan('5 fortnights')).toBeUndefined();
  });

  it('writes a unit whose stop timeout covers the drain, and reads it back', () => {
    const text = unitText({
      node: '/usr/bin/node',
      hermes: '/opt/my hermes/bin/hermes',
      root: '/home/u/.hermes',
      drainTimeoutS: 30,
    });
    expect(text).toContain('ExecStart=/usr/bin/node "/opt/my hermes/bin/hermes" gateway run');
    expect(text).toContain('Environment=HERMES_HOME=/home/u/.hermes');
    expect(unitStopTimeoutS(text)).toBe(45);
    expect(unitStopTimeoutS('[Service]\nExecStart=x\n')).toBe(90);
  });

  it('warns when TimeoutStopSec is shorter than the drain timeout', () => {
    const unit = join(dir, 'u.service');
    writeFileSync(unit, '[Service]\nTimeoutStopSec=10s\n');
    expect(stopTimeoutWarning(unit, 30)).toMatch(
      /TimeoutStopSec=10s, shorter than gateway.drain_timeout=30s/,
    );
    expect(stopTimeoutWarning(unit, 10)).toBeUndefined();
    expect(stopTimeoutWarning(join(dir, 'absent.service'), 30)).toBeUndefined();
  });

  it('puts the unit under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(unitFilePath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/systemd/user/hermes-gateway.service');
    expect(unitFilePath({ HOME: '/h' })).toBe('/h/.config/systemd/user/hermes-gateway.service');
  });
});
