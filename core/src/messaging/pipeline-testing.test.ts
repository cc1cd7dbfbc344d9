/**
 * The pipeline's test wiring: `testPipeline` on stores a test made, and the file fixture
 * `usePipelineTests` (its pipelines, and what it cleans up after each test).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { testPipeline, usePipelineTests } from './pipeline-testing.js';
import type { PlatformEntry } from './registry.js';
import { MemoryAdapter } from './testing.js';

const dbs: SessionDB[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

describe('testPipeline', () => {
  it('routes the adapter’s messages to the pipeline, with pairing codes kept in the home', async () => {
    const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-pipe-kit-'))).ensure();
    const db = SessionDB.open(home.stateDbFile);
    dbs.push(db);
    const adapter = new MemoryAdapter('memory');
    const entry: PlatformEntry = { name: 'memory', label: 'Memory', createAdapter: () => adapter };
    const config = ConfigSchema.parse({ platforms: { memory: { enabled: true } } });
    const kit = testPipeline({ home, db, entry, adapter, config: () => config, log: () => {} });

    await adapter.receive({
      source: { platform: 'memory', chatType: 'dm', chatId: 'dm-eve', userId: 'eve' },
      text: 'hi',
    });

    const code = /pairing code is ([A-Z2-9]{8})/.exec(adapter.texts('dm-eve')[0] ?? '')?.[1];
    expect(code).toBeDefined();
    expect(kit.pairing.approveCode(code!).ok).toBe(true);
    // an unknown user is only offered a pairing code: the in-process backend never ran a turn
    expect(kit.backend.status('any')).toBeUndefined();
  });
});

const pipes = usePipelineTests();

describe('usePipelineTests', () => {
  let previousRoot = '';

  it('makes a pipeline on platform memory whose agents talk to the file’s model server', async () => {
    const fx = pipes.create({ platform: { allowed_users: ['alice'] } });
    pipes.model.push({ text: 'hello from the model' });
    await fx.adapter.receive({
      source: { platform: 'memory', chatType: 'dm', chatId: 'dm-alice', userId: 'alice' },
      text: 'hi',
    });
    expect(fx.adapter.texts('dm-alice')).toEqual(['hello from the model']);
    expect(fx.db.listSessions({ source: 'memory' })).toHaveLength(1);
    expect(existsSync(fx.root)).toBe(true);
    previousRoot = fx.root;
    pipes.model.push({ text: 'never asked for' });
  });

  it('after each test the temp home is gone and the model server’s queue and requests are empty', async () => {
    expect(previousRoot).not.toBe('');
    expect(existsSync(previousRoot)).toBe(false);
    expect(pipes.model.requests).toHaveLength(0);
    const fx = pipes.create({ platform: { allowed_users: ['alice'] } });
    await fx.adapter.receive({
      source: { platform: 'memory', chatType: 'dm', chatId: 'dm-alice', userId: 'alice' },
      text: 'hi',
    });
    // the step left queued by the last test was dropped: the server's default answer came
    expect(fx.adapter.texts('dm-alice')).toEqual(['OK']);
  });
});
