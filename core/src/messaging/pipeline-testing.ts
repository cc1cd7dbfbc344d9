/**
 * Test wiring of a `MessagePipeline` on one in-memory platform, shared by the pipeline's suites:
 * `testPipeline` wires a pipeline to stores a test made; `usePipelineTests` is the whole fixture
 * of a test file (the scripted model server, a temp home with a real SessionDB and config, the
 * memory adapter, the pipeline) with its vitest hooks. Kept out of core's build
 * (core/tsconfig.json): it loads the scripted model server of tests/support.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
} from '../../../tests/support/fake-model-server.js';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { ChatSessionIndex } from './chat-sessions.js';
import { DeliveryLedger } from './delivery-ledger.js';
import type { AgentBackend } from './backend.js';
import { HookRegistry } from './hooks.js';
import { InProcessBackend } from './local-backend.js';
import { PairingStore } from './pairing.js';
import { MessagePipeline, type PipelineOptions } from './pipeline.js';
import type { PlatformEntry } from './registry.js';
import { MemoryAdapter } from './testing.js';

/**
 * What a test chooses of its pipeline; `db` holds the chat-session index and, without a
 * `backend`, the sessions of in-process agents built on the config at this call.
 */
export type TestPipelineOptions = Pick<
  PipelineOptions,
  'home' | 'entry' | 'adapter' | 'config' | 'log' | 'ledger' | 'transcript' | 'transcribe'
> & { db: SessionDB; backend?: AgentBackend };

/** A test pipeline and the stores it was given. */
export interface TestPipeline {
  pipeline: MessagePipeline;
  backend: AgentBackend;
  store: ChatSessionIndex;
  pairing: PairingStore;
  hooks: HookRegistry;
}

/**
 * A pipeline of profile `default` with no secrets and new sessions in `<home>/workspace`; its
 * chat-session index lives in `db` and never expires a session whose turn runs, pairing codes and
 * hooks are `home`'s. The adapter's inbound messages and button presses go to the pipeline.
 */
export function testPipeline(opts: TestPipelineOptions): TestPipeline {
  const {
    db,
    backend = new InProcessBackend({ home: opts.home, config: opts.config(), secrets: {}, db }),
    ...rest
  } = opts;
  const { home, log, adapter } = rest;
  const store = new ChatSessionIndex({
    file: home.sessionsIndexFile,
    db,
    log,
    hasActiveWork: (id) => backend.isBusy(id),
  });
  const pairing = new PairingStore(home.pairingDir);
  const hooks = new HookRegistry(log);
  const pipeline = new MessagePipeline({
    ...rest,
    backend,
    profile: 'default',
    store,
    pairing,
    hooks,
    secrets: () => ({}),
    defaultCwd: home.path('workspace'),
  });
  adapter.setHandlers({
    onMessage: (m) => pipeline.handleMessage(m),
    onButton: (p) => pipeline.handleButton(p),
    isAuthorized: (source) => pipeline.isAuthorized(source),
  });
  return { pipeline, backend, store, pairing, hooks };
}

/** The parts of a fixture pipeline made before the pipeline itself (for its ledger). */
export interface PipelineParts {
  home: HermesHome;
  db: SessionDB;
  adapter: MemoryAdapter;
  /** Appends to the pipeline's `logs`. */
  log: (line: string) => void;
}

/**
 * A delivery ledger stored in the fixture's SessionDB (as the daemon's is), for tests of what
 * survives a restart: a new pipeline on the same root reads what the last one left.
 */
export function storedLedger({ db, adapter, log }: PipelineParts): DeliveryLedger {
  return new DeliveryLedger({
    platform: 'memory',
    store: db.platforms,
    sender: adapter,
    maxLength: () => 0,
    log,
  });
}

/** What a test chooses of a fixture pipeline; everything has a default. */
export interface PipelineSetupOptions {
  /** The home's folder (default: a new temp folder, removed after the test). */
  root?: string;
  /** Prefix of the temp folder (default `hermes-pipe-`). */
  prefix?: string;
  /** Extra keys of the `model` section (e.g. `vision`); it points at the scripted model server. */
  model?: Record<string, unknown>;
  /** Keys of `platforms.memory` besides `enabled: true` (e.g. `allowed_users`). */
  platform?: Record<string, unknown>;
  /** Other top-level config sections (e.g. `images`, `terminal`). */
  config?: Record<string, unknown>;
  /** The memory adapter's capabilities. */
  caps?: ConstructorParameters<typeof MemoryAdapter>[1];
  /** Fields of the platform entry besides its name, label and adapter. */
  entry?: Partial<PlatformEntry>;
  /** SessionDB's warnings (default: SessionDB's own). */
  warn?: (message: string) => void;
  /** The pipeline's delivery ledger, made from the other parts (default: none). */
  ledger?: (parts: PipelineParts) => PipelineOptions['ledger'];
  /** Give the pipeline `db`'s transcript (restart recovery reads it). */
  transcript?: boolean;
  /** The pipeline's transcriber of voice messages. */
  transcribe?: PipelineOptions['transcribe'];
}

/** A fixture pipeline and everything it was made of. */
export interface PipelineSetup extends TestPipeline, PipelineParts {
  /** The home's folder. */
  root: string;
  /** The platform entry of the memory adapter. */
  entry: PlatformEntry;
  /** Every line the pipeline logged, in order. */
  logs: string[];
  /** Replaces the config the pipeline reads from the next message on. */
  setConfig(config: HermesConfig): void;
}

/** The fixture of one test file of the pipeline (see `usePipelineTests`). */
export interface PipelineTests {
  /** The file's scripted model server (started before the first test). */
  readonly model: FakeModelServer;
  /**
   * A pipeline of profile `default` on platform `memory` (enabled) in a temp home with a real
   * SessionDB (closed after the test), in-process agents talking to `model`.
   */
  create(opts?: PipelineSetupOptions): PipelineSetup;
}

/**
 * Registers the hooks of a file of pipeline tests: one scripted model server started before the
 * file's tests (with `model`'s options) and closed after them; after each test the SessionDBs of
 * the pipelines made are closed, their temp homes removed and (unless `reset` is false) the model
 * server's queue and recorded requests emptied.
 */
export function usePipelineTests(
  opts: { model?: FakeModelServerOptions; reset?: boolean } = {},
): PipelineTests {
  let model: FakeModelServer | undefined;
  const dbs: SessionDB[] = [];
  const roots: string[] = [];
  beforeAll(async () => {
    model = await startFakeModelServer(opts.model);
  });
  afterAll(() => model?.close());
  afterEach(async () => {
    for (const d of dbs.splice(0)) d.close();
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
    if (opts.reset !== false && model)
      await fetch(`${model.url.replace(/\/v1$/, '')}/__reset`, { method: 'POST' });
  });
  const fixture: PipelineTests = {
    get model(): FakeModelServer {
      if (!model) throw new Error('the model server starts in beforeAll: use it inside a test');
      return model;
    },
    create(o = {}) {
      let root = o.root;
      if (root === undefined) {
        root = mkdtempSync(join(tmpdir(), o.prefix ?? 'hermes-pipe-'));
        roots.push(root);
      }
      const home = new HermesHome(root).ensure();
      let config = ConfigSchema.parse({
        model: { provider: 'custom', base_url: fixture.model.url, default: 'fake-model', ...o.model },
        platforms: { memory: { enabled: true, ...o.platform } },
        ...o.config,
      });
      const db = SessionDB.open(home.stateDbFile, o.warn ? { warn: o.warn } : undefined);
      dbs.push(db);
      const logs: string[] = [];
      const log = (line: string): void => void logs.push(line);
      const adapter = new MemoryAdapter('memory', o.caps ?? {});
      const entry: PlatformEntry = {
        name: 'memory',
        label: 'Memory',
        createAdapter: () => adapter,
        ...o.entry,
      };
      const ledger = o.ledger?.({ home, db, adapter, log });
      const kit = testPipeline({
        home,
        db,
        entry,
        adapter,
        config: () => config,
        log,
        ...(ledger ? { ledger } : {}),
        ...(o.transcript
          ? {
              transcript: {
                getMessages: (id, m) => db.getMessages(id, m),
                lastMessageId: (id) => db.platforms.lastMessageId(id),
              },
            }
          : {}),
        ...(o.transcribe ? { transcribe: o.transcribe } : {}),
      });
      return { ...kit, root, home, db, adapter, entry, log, logs, setConfig: (c) => (config = c) };
    },
  };
  return fixture;
}
