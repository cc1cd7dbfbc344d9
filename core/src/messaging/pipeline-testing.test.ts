import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { testPipeline } from './pipeline-testing.js';
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
