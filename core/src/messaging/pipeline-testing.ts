/**
 * Test wiring of a `MessagePipeline` on one in-memory platform, shared by the pipeline's suites.
 * Not exported from the package index (it loads the whole engine, unlike `./testing.js`).
 */
import type { SessionDB } from '../state/session-db.js';
import { ChatSessionIndex } from './chat-sessions.js';
import type { AgentBackend } from './backend.js';
import { HookRegistry } from './hooks.js';
import { InProcessBackend } from './local-backend.js';
import { PairingStore } from './pairing.js';
import { MessagePipeline, type PipelineOptions } from './pipeline.js';

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
