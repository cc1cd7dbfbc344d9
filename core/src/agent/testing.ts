/**
 * Test fixture for the agent loop (agent, compressor, subagent and smart-approval tests, the loop
 * benchmark): a temp home with a real SessionDB, a config pointing at the scripted model server
 * (tests/support/fake-model-server.ts), one stored session, and an Agent whose events are
 * recorded; `useTestAgents` adds the vitest hooks of a test file. Kept out of core's build
 * (core/tsconfig.json).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import type { ChatMessage } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import type { SessionRecord } from '../state/types.js';
import { SessionDB } from '../state/session-db.js';
import { builtinTools } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';
import { Agent, type AgentOptions } from './agent.js';
import { toNewMessage } from './compressor.js';

/** Options of `createTestAgent`; everything but `modelUrl` has a default. */
export interface TestAgentOptions {
  /** Base URL of the scripted model server (`FakeModelServer.url`). */
  modelUrl: string;
  /** Extra keys of the `model` section (e.g. `context_length`). */
  model?: Record<string, unknown>;
  /** Other top-level config sections (e.g. `compression`, `approvals`). */
  config?: Record<string, unknown>;
  /** The agent's tools (default: the built-in tool set). */
  tools?: ToolDefinition[];
  /** Default: "You are a test agent.". */
  systemPrompt?: string;
  /** The stored session's source and title. */
  session?: { source?: string; title?: string };
  /** Earlier history: stored after the system prompt and handed to the agent. */
  history?: ChatMessage[];
  /** Any other Agent options (delegation, contextWindow, onApproval…). */
  agent?: Partial<AgentOptions>;
  /** Prefix of the temp folder. */
  prefix?: string;
}

/** What `createTestAgent` made. `root` is the agent's cwd; the home is `<root>/home`. */
export interface TestAgent {
  root: string;
  home: HermesHome;
  config: HermesConfig;
  db: SessionDB;
  session: SessionRecord;
  agent: Agent;
  /** Every event the agent emitted, in order. */
  events: AgentEvent[];
}

/** Builds an agent on a fresh temp home and session, talking to the scripted model. */
export function createTestAgent(opts: TestAgentOptions): TestAgent {
  const root = mkdtempSync(join(tmpdir(), opts.prefix ?? 'agent-'));
  const home = new HermesHome(join(root, 'home')).ensure();
  const config = ConfigSchema.parse({
    model: { provider: 'custom', base_url: opts.modelUrl, default: 'fake', ...opts.model },
    ...opts.config,
  });
  const db = SessionDB.open(home.stateDbFile);
  const session = db.createSession({
    source: opts.session?.source ?? 'test',
    cwd: root,
    ...(opts.session?.title ? { title: opts.session.title } : {}),
  });
  const systemPrompt = opts.systemPrompt ?? 'You are a test agent.';
  if (opts.history) {
    db.appendMessages(session.id, [
      { role: 'system', content: systemPrompt },
      ...opts.history.map(toNewMessage),
    ]);
  }
  const events: AgentEvent[] = [];
  const agent = new Agent({
    home,
    config,
    secrets: {},
    sessionId: session.id,
    cwd: root,
    store: db,
    model: createModelClient({ config, secrets: {} }),
    tools: opts.tools ?? builtinTools(),
    systemPrompt,
    ...(opts.history ? { history: opts.history } : {}),
    onEvent: (e) => events.push(e),
    ...opts.agent,
  });
  return { root, home, config, db, session, agent, events };
}

/** What `useTestAgents` gives a test file. */
export interface TestAgents {
  /** The file's scripted model server (started before the first test). */
  readonly model: FakeModelServer;
  /** An agent talking to `model`; its temp folder is removed after the test. */
  create(opts?: Omit<TestAgentOptions, 'modelUrl'>): TestAgent;
}

/**
 * The fixture of a file of agent-loop tests: registers hooks that start one scripted model server
 * before the file's tests and close it after them, and remove the temp folder of every agent made
 * with `create` after each test.
 */
export function useTestAgents(): TestAgents {
  let model: FakeModelServer | undefined;
  const roots: string[] = [];
  beforeAll(async () => {
    model = await startFakeModelServer();
  });
  afterAll(() => model?.close());
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  return {
    get model(): FakeModelServer {
      if (!model) throw new Error('the model server starts in beforeAll: use it inside a test');
      return model;
    },
    create(opts = {}) {
      const t = createTestAgent({ ...opts, modelUrl: this.model.url });
      roots.push(t.root);
      return t;
    },
  };
}
