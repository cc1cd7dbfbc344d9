import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { writePythonStateDb } from '@hermes/core/testing';
import { guardPythonHome } from './python-home-guard.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'guard-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('guardPythonHome', () => {
  it('refuses commands in a home of the Python Hermes, except migrate and help', async () => {
    writePythonStateDb(join(dir, 'state.db'), []);
    await expect(guardPythonHome(dir, ['sessions', 'list'])).rejects.toMatchObject({
      code: 1,
      message: expect.stringContaining('hermes migrate --from'),
    });
    await expect(guardPythonHome(dir, [])).rejects.toThrow(/home of the Python Hermes/);
    await expect(guardPythonHome(dir, ['migrate', '--from', '/x'])).resolves.toBeUndefined();
    await expect(guardPythonHome(dir, ['cron', '--help'])).resolves.toBeUndefined();
  });

  it('lets our homes and empty ones pass', async () => {
    await expect(guardPythonHome(dir, ['sessions'])).resolves.toBeUndefined();
    SessionDB.open(join(dir, 'state.db')).close();
    await expect(guardPythonHome(dir, ['sessions'])).resolves.toBeUndefined();
  });
});
