import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectDiscovery, removeDiscovery, writeDiscovery, type DiscoveryInfo } from './discovery.js';
import { selfIdentity } from '@hermes/client';

const dir = mkdtempSync(join(tmpdir(), 'hermes-discovery-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that certainly is not running any more. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

const info = (over: Partial<DiscoveryInfo> = {}): DiscoveryInfo => ({
  ...selfIdentity(),
  host: '127.0.0.1',
  port: 1234,
  token: 'f'.repeat(64),
  version: '0.1.0',
  epoch: 'e1',
  started_at: new Date().toISOString(),
  ...over,
});

describe('discovery file', () => {
  it('is written with mode 0600 and read back as alive', () => {
    const file = join(dir, 'a.json');
    writeDiscovery(file, info());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(inspectDiscovery(file)).toMatchObject({ state: 'alive', info: { port: 1234 } });
  });

  it('is stale when its pid is gone or was reused', () => {
    const file = join(dir, 'b.json');
    writeDiscovery(file, info({ pid: deadPid(), proc_start: undefined }));
    expect(inspectDiscovery(file).state).toBe('stale');
    if (selfIdentity().proc_start) {
      writeDiscovery(file, info({ proc_start: '1' }));
      expect(inspectDiscovery(file).state).toBe('stale');
    }
  });

  it('names the file and field when it is malformed', () => {
    const file = join(dir, 'c.json');
    writeFileSync(file, '{"pid": "x"}');
    const d = inspectDiscovery(file);
    expect(d.state).toBe('invalid');
    expect(d.state === 'invalid' && d.error).toMatch(/c\.json: field "pid"/);
    writeFileSync(file, '{');
    expect(inspectDiscovery(file)).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(inspectDiscovery(join(dir, 'none.json'))).toEqual({ state: 'absent' });
  });

  it('is removed only by its own epoch', () => {
    const file = join(dir, 'd.json');
    writeDiscovery(file, info({ epoch: 'mine' }));
    expect(removeDiscovery(file, 'other')).toBe(false);
    expect(removeDiscovery(file, 'mine')).toBe(true);
    expect(inspectDiscovery(file).state).toBe('absent');
  });
});
