import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tickCadence } from './run-cron.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
function rootWith(config: string): string {
  const root = mkdtempSync(join(tmpdir(), 'hermes-cadence-'));
  roots.push(root);
  writeFileSync(join(root, 'config.yaml'), `_config_version: 2\n${config}`);
  return root;
}

describe('tickCadence (hermes cron status)', () => {
  it('states the interval in seconds: the default, or the configured one', () => {
    expect(tickCadence(rootWith(''))).toBe('it ticks every 60 s (cron.tick_interval, read when it starts)');
    expect(tickCadence(rootWith('cron:\n  tick_interval: 15\n'))).toBe(
      'it ticks every 15 s (cron.tick_interval, read when it starts)',
    );
  });
  it('names an external trigger instead', () => {
    expect(tickCadence(rootWith('cron:\n  trigger: /opt/my-trigger.mjs\n'))).toBe(
      'its ticks come from cron.trigger (/opt/my-trigger.mjs)',
    );
  });
});
