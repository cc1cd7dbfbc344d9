/**
 * Wiring one session's agent from a home: config, secrets, SessionDB, model client, tools,
 * system prompt. Shared by `hermes chat` (in process) and the daemon, so every entry point runs
 * the same engine.
 */
import type { HermesConfig } from '../config/schema.js';
import { loadSecrets, type Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import { contextWindowFor } from '../model/context-windows.js';
import type { ModelClient } from '../model/types.js';
import { MediaStore } from '../images/media-store.js';
import { SessionDB } from '../state/session-db.js';
import type { TranscriptStore } from './agent-types.js';
import type { SessionRecord } from '../state/types.js';
import { availableTools, builtinTools } from '../tools/registry.js';
import { laneOfSource } from '../tools/sandbox/policy.js';
import type { ToolDefinition } from '../tools/types.js';
import { Agent, type AgentOptions } from './agent.js';
import { historyFromRecords } from './history.js';
import { subagentDelegation } from './subagent.js';
import { blockedNotes } from './context-files.js';
import { buildSystemPrompt } from './system-prompt.js';
import { storedSessionCost, warmEndpointPrices } from './call-costs.js';

/** How to pick the session. */
export type SessionSelector =
  { kind: 'new'; title?: string } | { kind: 'id'; id: string } | { kind: 'continue' };

/** Options of `openAgentSession`. */
export interface OpenSessionOptions extends Pick<
  AgentOptions,
  'approvalMode' | 'onApproval' | 'onClarify' | 'onEvent' | 'processes' | 'editorFiles'
> {
  home: HermesHome;
  /** Session source recorded for new sessions (`cli`, `tui`, `cron` …). */
  source: string;
  select: SessionSelector;
  cwd: string;
  /** Model id for this run (`-m`). */
  model?: string;
  /** An already open database of this home (the daemon shares one); opened here otherwise. */
  db?: SessionDB;
  /** Where the agent writes its transcript (default `db`; the daemon's never-blocking writer). */
  store?: TranscriptStore;
  /** Replaces the model client (tests, delegation). */
  modelClient?: ModelClient;
  /** Replaces the tool set (still filtered by `availableTools`). */
  tools?: ToolDefinition[];
  /**
   * Resolves the tool set again at every turn (`AgentOptions.toolSource`): the daemon and
   * `hermes chat` pass the built-ins plus the MCP tools ready at that moment. Also gives the
   * opening tool set when `tools` is absent.
   */
  toolSource?: () => ToolDefinition[];
  /**
   * The home's validated config, loaded by the caller (the daemon keeps one per profile; the CLI
   * reads it through the config cache): this module does not import the YAML parser or zod.
   */
  config: HermesConfig;
  /** Preloaded secrets of this home (default: read from its `.env`). */
  secrets?: Secrets;
}

/** An opened session: its record, agent and database handle. */
export interface OpenedSession {
  session: SessionRecord;
  agent: Agent;
  db: SessionDB;
  config: HermesConfig;
  /** True when this call created the session. */
  created: boolean;
  /**
   * Warnings about how the session's system prompt was built, for its clients: the
   * `[BLOCKED: <file>: <classes>]` notes of context files or memory entries the content scanner
   * refused. Empty when there are none.
   */
  notices: string[];
  /** Closes the database when this call opened it. */
  close(): void;
}

/**
 * Opens (or creates) a session and builds its agent.
 * @throws Error for an unknown session id or when
 *   `continue` finds no session (it then creates one instead — see below).
 */
export function openAgentSession(opts: OpenSessionOptions): OpenedSession {
  const { home } = opts;
  home.ensure();
  const { config } = opts;
  const secrets = opts.secrets ?? loadSecrets(home);
  const ownDb = !opts.db;
  const db = opts.db ?? SessionDB.open(home.stateDbFile);
  try {
    let model = opts.modelClient;
    if (!model) {
      const client = createModelClient({
        config,
        secrets,
        envFile: home.envFile,
        ...(opts.model ? { modelOverride: opts.model } : {}),
      });
      // prices of a provider that reports them (OpenRouter) are fetched now, before the first turn
      warmEndpointPrices(home, client.provider, client.baseURL);
      model = client;
    }
    // Only tools that can work in this profile are offered (`ToolDefinition.available`), judged
    // at every turn by the agent's settings of that turn (`Agent.reconfigure` may change them).
    const built: { agent?: Agent } = {};
    const offered = (list: ToolDefinition[]): ToolDefinition[] =>
      availableTools(list, built.agent?.settings ?? { config, secrets });
    const source = opts.toolSource;
    const toolSource = source ? () => offered(source()) : undefined;
    const tools = offered(opts.tools ?? source?.() ?? builtinTools());

    let session: SessionRecord | undefined;
    if (opts.select.kind === 'id') {
      session = db.getSession(opts.select.id) ?? db.findSessionByTitle(opts.select.id);
      if (!session) throw new Error(`no session "${opts.select.id}" in ${home.stateDbFile}`);
    } else if (opts.select.kind === 'continue') {
      session = db.continueSession({ cwd: opts.cwd }); // last interactive one, this folder first
    }

    let created = false;
    let systemPrompt: string;
    let history: AgentOptions['history'] = [];
    if (session) {
      const loaded = historyFromRecords(
        db.getMessages(session.id, { limit: 100_000 }),
        new MediaStore(home.mediaDir),
      );
      history = loaded.history;
      systemPrompt =
        loaded.system ??
        buildSystemPrompt({
          home,
          config,
          cwd: session.cwd ?? opts.cwd,
          toolNames: tools.map((t) => t.name),
        });
    } else {
      systemPrompt = buildSystemPrompt({ home, config, cwd: opts.cwd, toolNames: tools.map((t) => t.name) });
      session = db.createSession({
        source: opts.source,
        model: opts.model ?? model.defaultModel,
        cwd: opts.cwd,
        ...(opts.select.kind === 'new' && opts.select.title ? { title: opts.select.title } : {}),
      });
      db.appendMessage(session.id, { role: 'system', content: systemPrompt });
      created = true;
    }

    const agent = new Agent({
      home,
      config,
      secrets,
      sessionId: session.id,
      cwd: session.cwd ?? opts.cwd,
      store: opts.store ?? db,
      model,
      tools,
      ...(toolSource ? { toolSource } : {}),
      systemPrompt,
      history,
      contextWindow: contextWindowFor(opts.model ?? model.defaultModel, config),
      ...(created ? {} : { sessionCost: storedSessionCost(db, session) }),
      delegation: subagentDelegation,
      // the sandbox lane follows the session's stored source (tui/cli, cron, api_server, a platform)
      sandboxLane: laneOfSource(session.source),
      ...(opts.approvalMode ? { approvalMode: opts.approvalMode } : {}),
      ...(opts.onApproval ? { onApproval: opts.onApproval } : {}),
      ...(opts.onClarify ? { onClarify: opts.onClarify } : {}),
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
      ...(opts.processes ? { processes: opts.processes } : {}),
      ...(opts.editorFiles ? { editorFiles: opts.editorFiles } : {}),
    });
    built.agent = agent;
    const notices = blockedNotes(systemPrompt);
    return { session, agent, db, config, created, notices, close: () => (ownDb ? db.close() : undefined) };
  } catch (err) {
    if (ownDb) db.close();
    throw err;
  }
}
