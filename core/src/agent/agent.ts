/**
 * One session's agent: its history, context size, settings, approvals and compressions, and the
 * entry points that change them between turns. One user turn = model calls and tool runs until a
 * final answer, the iteration budget, an interrupt or an unrecoverable error. Emits typed events
 * (the wire protocol's event names) and persists every message as it completes.
 *
 * Its parts: the turn itself (turn-loop.ts), each model request (model-request.ts), each
 * response's tool calls (tool-runs.ts), the guard and compressor rebuilt when the settings change
 * (settings-parts.ts).
 */
import { CheckpointTracker } from '../checkpoints/tracker.js';
import type { ApprovalGuard } from '../approvals/guard.js';
import { stricterApprovals } from '../config/approval-changes.js';
import type { HermesConfig } from '../config/schema.js';
import { contextWindowFor } from '../model/context-windows.js';
import type { ChatMessage } from '../model/types.js';
import type { AgentEvent, CompressionReason } from '../protocol/events.js';
import type { NewMessage } from '../state/types.js';
import type { TodoItem, ToolDefinition } from '../tools/types.js';
import type { ContextCompressor, CompressionOutcome } from './compressor.js';
import { CallCosts } from './call-costs.js';
import { repairToolPairs } from './history.js';
import { estimateTokens } from './compression-plan.js';
import { compressorFor, guardFor } from './settings-parts.js';
import { ToolRuns } from './tool-runs.js';
import { TurnLoop } from './turn-loop.js';
import type { AgentOptions, AgentSettings, TurnOptions, TurnResult } from './agent-types.js';

export { STREAM_CHECKPOINT_MS } from './stream-checkpoint.js';
export type { AgentOptions, AgentSettings, TranscriptStore, TurnOptions, TurnResult } from './agent-types.js';

/** One session's agent. Turns run one at a time; `runTurn` rejects while another runs. */
export class Agent {
  private currentSessionId: string;
  /** The session's task list (`todo` tool), kept across turns. */
  readonly todos: TodoItem[] = [];
  private history: ChatMessage[];
  private opts: AgentOptions;
  /** The tools of the current turn (see `AgentOptions.toolSource`). */
  private tools: ToolDefinition[];
  private toolsByName: Map<string, ToolDefinition>;
  private guard: ApprovalGuard;
  private busy = false;
  /** Snapshots before the first file change of a turn per directory (never a tool). */
  private readonly checkpoints: CheckpointTracker;
  /** Prompt tokens of the latest model call (how full the context is; estimated after compressing). */
  contextTokens = 0;
  private compressor: ContextCompressor;
  /** Runs each response's tool calls (tool-runs.ts). */
  private readonly toolRuns: ToolRuns;
  /** Prices and stores every model call; sums the session's cost. */
  private readonly costs: CallCosts;
  /** Runs each user turn (turn-loop.ts). */
  private readonly turns: TurnLoop;

  constructor(opts: AgentOptions) {
    this.opts = opts;
    this.currentSessionId = opts.sessionId;
    this.history = repairToolPairs(opts.history ?? []);
    this.tools = opts.tools;
    this.toolsByName = new Map(opts.tools.map((t) => [t.name, t]));
    // the tracker reads the config through the agent, so `reconfigure` reaches it
    const current = (): HermesConfig => this.opts.config;
    this.costs = new CallCosts(
      () => ({
        home: this.opts.home,
        config: this.opts.config,
        store: this.opts.store,
        primaryModel: this.opts.modelId ?? this.opts.model.defaultModel,
      }),
      opts.sessionCost,
    );
    this.checkpoints = new CheckpointTracker({
      home: opts.home,
      sessionId: opts.sessionId,
      get config() {
        return current();
      },
    });
    [this.guard, this.compressor] = this.fromSettings([], 0);
    this.toolRuns = new ToolRuns({
      options: () => this.opts,
      sessionId: () => this.sessionId,
      // a sub-agent checks with its session's guard as it is now (AgentOptions.sharedGuard)
      guard: () => this.opts.sharedGuard?.() ?? this.guard,
      tools: () => this.tools,
      toolsByName: () => this.toolsByName,
      todos: this.todos,
      checkpoints: this.checkpoints,
      emit: (e) => this.emit(e),
      persist: (m) => this.persist(m),
      pushHistory: (m) => this.history.push(m),
    });
    this.turns = new TurnLoop({
      options: () => this.opts,
      tools: () => this.tools,
      refreshTools: () => this.refreshTools(),
      compressor: () => this.compressor,
      costs: this.costs,
      checkpoints: this.checkpoints,
      toolRuns: this.toolRuns,
      history: () => this.history,
      setHistory: (h) => (this.history = h),
      contextTokens: () => this.contextTokens,
      setContextTokens: (n) => (this.contextTokens = n),
      sessionId: () => this.sessionId,
      emit: (e) => this.emit(e),
      persist: (m, o) => this.persist(m, o),
      tryCompress: (reason, signal) => this.tryCompress(reason, signal),
    });
  }

  /** The approval guard of the current settings, keeping the session approvals given. */
  private newGuard(sessionApprovals: string[]): ApprovalGuard {
    return guardFor(this.opts, sessionApprovals, this.costs, () => this.sessionId);
  }

  /** The approval guard and compressor of the current settings (keeping session approvals and the count). */
  private fromSettings(sessionApprovals: string[], compressions: number): [ApprovalGuard, ContextCompressor] {
    return [this.newGuard(sessionApprovals), compressorFor(this.opts, this.costs, compressions)];
  }

  /** The config and secrets in use (the constructor's, or the last `reconfigure`'s). */
  get settings(): Pick<AgentSettings, 'config' | 'secrets'> {
    return { config: this.opts.config, secrets: this.opts.secrets };
  }

  /**
   * Swaps the config, secrets and model client between turns (the daemon re-reads config.yaml
   * and `.env` when they change on disk): the next model call, tool run, approval check
   * (`approvals.*`, `command_allowlist`; `session` approvals are kept), compression threshold,
   * checkpoint setting, `agent.max_turns` and which tools are available (with a `toolSource`)
   * use them. The context window is recomputed for the new model. The system prompt, history
   * and todos are kept.
   * @throws Error while a turn runs (settings never change in the middle of one).
   */
  reconfigure(next: AgentSettings): void {
    if (this.busy) throw new Error(`session ${this.sessionId} is running a turn; reconfigure after it`);
    const contextWindow = contextWindowFor(this.opts.modelId ?? next.model.defaultModel, next.config);
    this.opts = { ...this.opts, ...next, contextWindow };
    [this.guard, this.compressor] = this.fromSettings(
      this.guard.sessionApprovals(),
      this.compressor.compressions,
    );
  }

  /**
   * While a turn runs, applies each approval setting of `config` that is stricter than the
   * turn's (`stricterApprovals`: mode, timeout, allowlist; config/approval-changes.ts) to the rest
   * of the turn, and to sub-agents it starts from now on. Looser settings never reach a running
   * turn: they wait for the next turn's `reconfigure`. `session` approvals are kept.
   * @returns whether the running turn's approval settings changed (false when idle).
   */
  restrictApprovals(config: HermesConfig): boolean {
    if (!this.busy) return false; // the next turn's `reconfigure` takes the whole config
    const stricter = stricterApprovals(this.opts.config, config);
    if (stricter === this.opts.config) return false;
    this.opts = { ...this.opts, config: stricter };
    this.guard = this.newGuard(this.guard.sessionApprovals());
    return true;
  }

  /** This session's `session` approvals (`/permissions`): the entries, and forgetting one. */
  readonly approvals = {
    list: (): string[] => this.guard.sessionApprovals(),
    revoke: (entry: string): boolean => this.guard.revoke(entry),
  };

  /** Context compressions done by this agent so far. */
  get compressions(): number {
    return this.compressor.compressions;
  }

  /**
   * Compresses the history now (`/compact [focus]`), whatever `compression.enabled` says.
   * @param focus what the summary should keep in most detail.
   * @returns the outcome (the agent continues in `outcome.sessionId`), or undefined when there
   *   is nothing to compress.
   * @throws Error while a turn runs; ModelError from the summary call (`aborted` on `signal`).
   */
  async compact(
    focus?: string,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<CompressionOutcome | undefined> {
    if (this.busy) throw new Error(`session ${this.sessionId} is running a turn; compact when it ends`);
    this.busy = true;
    try {
      return await this.compress('manual', signal, focus);
    } finally {
      this.busy = false;
      this.emit({ type: 'status.update', payload: { state: 'idle' } });
    }
  }

  /**
   * Replaces the middle of the history by a summary (compressor.ts) and continues in the child
   * session; emits `session.compressed`. Returns undefined when nothing could be compressed.
   */
  private async compress(
    reason: CompressionReason,
    signal: AbortSignal,
    focus?: string,
  ): Promise<CompressionOutcome | undefined> {
    const out = await this.compressor.compress({
      sessionId: this.sessionId,
      systemPrompt: this.opts.systemPrompt,
      history: this.history,
      contextTokens: this.contextTokens,
      reason,
      signal,
      ...(focus ? { focus } : {}),
      onStart: () =>
        this.emit({
          type: 'status.update',
          payload: { state: 'compressing', text: `compressing context (${reason})` },
        }),
    });
    if (!out) return undefined;
    this.history = out.history;
    this.currentSessionId = out.sessionId;
    this.contextTokens = out.afterTokens;
    this.emit({
      type: 'session.compressed',
      payload: {
        parent_session_id: out.parentSessionId,
        session_id: out.sessionId,
        before_tokens: out.beforeTokens,
        after_tokens: out.afterTokens,
        compressions: out.compressions,
        reason,
        ...(this.opts.contextWindow ? { context_window: this.opts.contextWindow } : {}),
      },
    });
    return out;
  }

  /** `compress`, reporting a failure as a status line instead of throwing. */
  private async tryCompress(
    reason: CompressionReason,
    signal: AbortSignal,
  ): Promise<'done' | 'none' | 'failed'> {
    try {
      return (await this.compress(reason, signal)) ? 'done' : 'none';
    } catch (err) {
      if (!signal.aborted) {
        const text = `context compression failed: ${err instanceof Error ? err.message : String(err)}`;
        this.emit({ type: 'status.update', payload: { state: 'compressing', text } });
      }
      return 'failed';
    }
  }

  /**
   * The session the agent writes to. Changes when context compression continues the conversation
   * in a child session (`session.compressed` says so).
   */
  get sessionId(): string {
    return this.currentSessionId;
  }

  /** True while a turn runs. */
  get isBusy(): boolean {
    return this.busy;
  }

  /** A copy of the in-memory history (no system message). */
  getHistory(): ChatMessage[] {
    return [...this.history];
  }

  /**
   * Replaces the history the model sees from the next turn on (`/undo`, `/retry`, `/rewind`: the
   * stored transcript was cut, and nothing removed from it may reach the model again). The
   * context size is re-estimated from what is left; the system prompt, todos, session approvals
   * and the compression count are kept.
   * @param history the session's messages as now stored (no system message), e.g. from
   *   `historyFromRecords`.
   * @throws Error while a turn runs.
   */
  replaceHistory(history: readonly ChatMessage[]): void {
    if (this.busy) throw new Error(`session ${this.sessionId} is running a turn; rewind after it`);
    this.history = repairToolPairs(history);
    this.contextTokens = estimateTokens([
      { role: 'system', content: this.opts.systemPrompt },
      ...this.history,
    ]);
  }

  /** Takes the tool set of this turn from `toolSource` (keeps the last one when it throws). */
  private refreshTools(): void {
    if (!this.opts.toolSource) return;
    try {
      this.tools = this.opts.toolSource();
      this.toolsByName = new Map(this.tools.map((t) => [t.name, t]));
    } catch {
      /* a failing source leaves the previous turn's tools */
    }
  }

  private emit(event: AgentEvent): void {
    try {
      this.opts.onEvent?.(event);
    } catch {
      /* a frontend's failure never breaks the loop */
    }
  }

  private persist(msg: NewMessage, opts?: TurnOptions): number {
    return opts?.queuedPromptId === undefined
      ? this.opts.store.appendMessage(this.sessionId, msg)
      : this.opts.store.appendMessage(this.sessionId, msg, { unqueuePromptId: opts.queuedPromptId });
  }

  /**
   * Runs one user turn.
   * @param text the user's message (persisted before the model is called).
   * @param signal interrupt: stops the stream and running tools; the partial reply is kept.
   * @param opts.queuedPromptId the stored queued prompt this turn runs: removed in the
   *   transaction that stores the user message.
   * @throws Error when a turn is already running on this agent.
   */
  async runTurn(
    text: string,
    signal: AbortSignal = new AbortController().signal,
    opts: TurnOptions = {},
  ): Promise<TurnResult> {
    if (this.busy) throw new Error(`session ${this.sessionId} is already running a turn`);
    this.busy = true;
    try {
      return await this.turns.run(text, signal, opts);
    } finally {
      this.busy = false;
      this.emit({ type: 'status.update', payload: { state: 'idle' } });
    }
  }
}
