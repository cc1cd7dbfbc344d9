/**
 * The guard's question for a file edit (`approvals.edits: ask`): a human is asked with the diff on
 * the request and only `once` or `deny`; nothing is remembered; it fails closed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createApprovalGuard, EDIT_KEY, type ApprovalGuardOptions } from './guard.js';
import { answering } from './testing.js';

let root: string;
let home: HermesHome;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-guard-edit-'));
  home = new HermesHome(root).ensure();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const guard = (opts: Partial<ApprovalGuardOptions> = {}) =>
  createApprovalGuard({ config: defaultConfig(), home, sessionId: 's1', ...opts });
const EDIT = { path: 'src/a.ts', diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b' };

describe('askEdit', () => {
  it('asks a human with the diff, offering once or deny; once allows, and is not remembered', async () => {
    const { requests, callback } = answering('once');
    const g = guard({ callback });
    expect(await g.askEdit('patch', EDIT)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(requests[0]).toMatchObject({
      command: 'patch src/a.ts',
      edit: EDIT,
      choices: ['once', 'deny'],
      patternKeys: [EDIT_KEY],
      allows: [],
    });
    await g.askEdit('patch', EDIT);
    expect(requests).toHaveLength(2);
  });

  it('fails closed: deny, no frontend; mode off asks nothing', async () => {
    const { callback } = answering('deny');
    expect(await guard({ callback }).askEdit('write_file', EDIT)).toMatchObject({
      allowed: false,
      reason: 'denied',
    });
    expect(await guard().askEdit('write_file', EDIT)).toMatchObject({
      allowed: false,
      reason: 'no_frontend',
    });
    const { requests, callback: cb } = answering('deny');
    expect(await guard({ callback: cb, mode: 'off' }).askEdit('write_file', EDIT)).toMatchObject({
      allowed: true,
      reason: 'mode_off',
    });
    expect(requests).toHaveLength(0);
  });
});
