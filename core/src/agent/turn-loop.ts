/**
 * One user turn of an agent: the user message stored and added to the history, then model calls
 * and tool runs until a final answer, the iteration budget (`agent.max_turns`), an interrupt or an
 * unrecoverable error. Between steps it delivers guidance, compresses the context at its threshold,
 * and on a context overflow compresses (or drops the oldest turns) and retries once.
 *
 * The agent's state (history, context size, session id, settings) stays in agent.ts; the loop
 * reads and changes it through `TurnHost`.
 */
import type { CheckpointTracker } from '../checkpoints/tracker.js';
import { MediaStore } from '../images/media-store.js';
import { userContent } from '../images/parts.js';
import { ModelError } from '../model/errors.js';
import { addCost, emptyCostSum, sumFields, type CostSum } from '../model/pricing.js';
import type { ChatMessage, ChatResult } from '../model/types.js';
import { visionRefusal } from '../model/vision.js';
import type { AgentEvent, CompressionReason, Usage } from '../protocol/events.js';
import { GUIDANCE_STATUS, type NewMessage } from '../state/types.js';
import type { ToolDefinition } from '../tools/types.js';
import type { AgentOptions, TurnOptions, TurnResult } from './agent-types.js';
import { sumUsage, type CallCosts } from './call-costs.js';
import type { ContextCompressor } from './compressor.js';
import { guidanceForModel } from './history.js';
import { requestModel } from './model-request.js';
import { dropOldestTurns } from './overflow.js';
import { StreamCheckpoint } from './stream-checkpoint.js';
import { errorOutcome } from './tool-outcomes.js';
import type { ToolRuns } from './tool-runs.js';

const zeroUsage = (): Usage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

/** The agent's parts a turn reads and changes; read at each use (a turn may restrict approvals). */
export interface TurnHost {
  /** The agent's current options (config, store, model client, context window). */
  options(): AgentOptions;
  /** The tools of this turn (after `refreshTools`). */
  tools(): ToolDefinition[];
  /** Takes this turn's tool set from `AgentOptions.toolSource`, if any. */
  refreshTools(): void;
  /** The context compressor of the current settings. */
  compressor(): ContextCompressor;
  /** Prices and stores each model call; sums the session's cost. */
  readonly costs: CallCosts;
  /** Snapshots before the turn's first file change per directory. */
  readonly checkpoints: CheckpointTracker;
  /** Runs each response's tool calls. */
  readonly toolRuns: ToolRuns;
  /** The history the model sees, by reference (pushed to in place); `setHistory` replaces it. */
  history(): ChatMessage[];
  setHistory(history: ChatMessage[]): void;
  /** Prompt tokens of the latest model call (how full the context is). */
  contextTokens(): number;
  setContextTokens(tokens: number): void;
  /** The session the agent writes to now (changes when compression continues in a child). */
  sessionId(): string;
  /** Emits an event of the turn (never throws). */
  emit(event: AgentEvent): void;
  /** Stores a message in the session; `opts.queuedPromptId` is unqueued with it. Returns its id. */
  persist(msg: NewMessage, opts?: TurnOptions): number;
  /** Compresses the context; a failure is reported as a status line, not thrown. */
  tryCompress(reason: CompressionReason, signal: AbortSignal): Promise<'done' | 'none' | 'failed'>;
}

/** Runs the turns of one agent (see the file comment); the agent lets one run at a time. */
export class TurnLoop {
  /** @param host the agent's parts, read live (see `TurnHost`). */
  constructor(private readonly host: TurnHost) {}

  /**
   * Runs one user turn (the agent checked that no other runs).
   * @param text the user's message (persisted before the model is called).
   * @param signal interrupt: stops the stream and running tools; the partial reply is kept.
   * @returns how the turn ended; a refused prompt (vision, a bad image) ends as `error` with
   *   nothing stored. Never throws for a model error: it is stored, emitted and returned.
   */
  async run(text: string, signal: AbortSignal, opts: TurnOptions): Promise<TurnResult> {
    const host = this.host;
    const { config } = host.options();
    const images = opts.images ?? [];
    const modelId = host.options().modelId ?? host.options().model.defaultModel;
    const refused = visionRefusal(modelId, images.length, config);
    if (refused) {
      // refused before anything is stored: the prompt was not taken, and says why
      host.emit({ type: 'error', payload: { message: refused, kind: 'invalid_request' } });
      return { status: 'error', text: '', usage: zeroUsage(), error: refused };
    }
    let content: ReturnType<typeof userContent>;
    try {
      content = userContent(text, images, new MediaStore(host.options().home.mediaDir));
    } catch (err) {
      const message = (err as Error).message;
      host.emit({ type: 'error', payload: { message, kind: 'invalid_request' } });
      return { status: 'error', text: '', usage: zeroUsage(), error: message };
    }
    host.persist(
      { role: 'user', content: text, ...(images.length ? { attachments: JSON.stringify(images) } : {}) },
      opts,
    );
    host.history().push({ role: 'user', content });
    host.checkpoints.newTurn(text);
    host.refreshTools();
    let usage = zeroUsage();
    let turnCost: CostSum = emptyCostSum();
    let lastText = '';
    let overflowRetried = false;
    let compressionFailed = false;

    for (let iteration = 0; iteration < config.agent.max_turns; iteration++) {
      if (signal.aborted) return this.finishInterrupted('', usage);
      // a step boundary: the tool calls of the last response finished, the next request follows
      if (iteration > 0) this.deliverGuidance(opts);
      if (!compressionFailed && host.compressor().shouldCompress(host.contextTokens())) {
        // a failed summary call is not retried before every call of this turn
        compressionFailed = (await host.tryCompress('threshold', signal)) === 'failed';
        if (signal.aborted) return this.finishInterrupted('', usage);
      }
      host.emit({ type: 'status.update', payload: { state: 'thinking' } });
      host.emit({ type: 'message.start', payload: { role: 'assistant' } });
      let result: ChatResult;
      const checkpoint = new StreamCheckpoint({
        append: (m) => host.persist(m),
        update: (id, patch) => host.options().store.updateMessage(id, patch),
      });
      try {
        result = await requestModel(
          { opts: host.options(), history: host.history(), tools: host.tools(), emit: (e) => host.emit(e) },
          signal,
          checkpoint,
        );
      } catch (err) {
        const e = err instanceof ModelError ? err : undefined;
        if (e?.kind === 'aborted' || signal.aborted) {
          return this.finishInterrupted(e?.partial?.text ?? '', usage, e?.partial?.reasoning, (m) =>
            checkpoint.finalize(m),
          );
        }
        if (e?.kind === 'context_overflow' && !overflowRetried) {
          overflowRetried = true;
          if ((await host.tryCompress('overflow', signal)) === 'done' || signal.aborted) {
            iteration--;
            continue;
          }
          const shrunk = dropOldestTurns(host.history());
          if (shrunk.dropped > 0) {
            host.setHistory(shrunk.history);
            host.emit({
              type: 'status.update',
              payload: {
                state: 'compressing',
                text: `context full: dropped ${shrunk.dropped} oldest messages`,
              },
            });
            iteration--;
            continue;
          }
        }
        const message = err instanceof Error ? err.message : String(err);
        checkpoint.finalize({
          role: 'assistant',
          content: e?.partial?.text ?? '',
          status: 'error',
          finish_reason: 'error',
          outcome: errorOutcome(message),
        });
        host.emit({ type: 'error', payload: { message, ...(e ? { kind: e.kind } : {}) } });
        host.emit({
          type: 'message.complete',
          payload: { text: '', status: 'error', usage: zeroUsage(), error: message },
        });
        return { status: 'error', text: '', usage, error: message };
      }

      host.setContextTokens(result.usage.prompt_tokens || host.contextTokens());
      lastText = result.text;
      const toolCalls = result.toolCalls;
      const messageId = checkpoint.finalize({
        role: 'assistant',
        content: result.text,
        tool_calls: toolCalls.length ? JSON.stringify(toolCalls) : null,
        reasoning: result.reasoning || null,
        finish_reason: result.finishReason,
        status: 'complete',
      });
      // the call's cost is stored with the message it produced and summed for turn and session
      const { usage: callUsage, cost } = host.costs.record(
        host.sessionId(),
        result.usage,
        {
          provider: result.provider,
          model: result.model,
          ...(result.baseURL ? { baseURL: result.baseURL } : {}),
        },
        messageId,
      );
      turnCost = addCost(turnCost, cost);
      usage = { ...sumUsage(usage, result.usage), ...sumFields(turnCost) };
      host.history().push({
        role: 'assistant',
        content: result.text,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        // Anthropic: sent back unchanged with the tool results of this turn (in memory only)
        ...(result.thinkingBlocks?.length ? { thinking_blocks: result.thinkingBlocks } : {}),
      });
      host.emit({
        type: 'message.complete',
        payload: {
          text: result.text,
          status: 'complete',
          usage: callUsage,
          ...(result.finishReason ? { finish_reason: result.finishReason } : {}),
        },
      });
      const contextWindow = host.options().contextWindow;
      host.emit({
        type: 'session.usage',
        payload: {
          usage,
          context_tokens: host.contextTokens(),
          ...(contextWindow ? { context_window: contextWindow } : {}),
          ...host.costs.sessionFields(),
        },
      });

      if (toolCalls.length === 0) return { status: 'complete', text: result.text, usage };

      host.emit({ type: 'status.update', payload: { state: 'tools' } });
      await host.toolRuns.run(toolCalls, signal);
      if (signal.aborted) return this.finishInterrupted('', usage, undefined, undefined, true);
    }

    const note = `Stopped after ${config.agent.max_turns} model calls (agent.max_turns) without a final answer.`;
    host.persist({ role: 'assistant', content: note, status: 'max_turns', finish_reason: 'max_turns' });
    host.history().push({ role: 'assistant', content: note });
    host.emit({ type: 'message.start', payload: { role: 'assistant' } });
    host.emit({ type: 'message.delta', payload: { text: note } });
    host.emit({ type: 'message.complete', payload: { text: note, status: 'max_turns', usage: zeroUsage() } });
    return { status: 'max_turns', text: lastText || note, usage };
  }

  /**
   * Stores and adds to the history the guidance given while this turn ran (`TurnOptions.takeGuidance`),
   * at a step boundary: after the tool calls of a response, before the next model request.
   */
  private deliverGuidance(opts: TurnOptions): void {
    for (const text of opts.takeGuidance?.() ?? []) {
      this.host.persist({ role: 'user', content: text, status: GUIDANCE_STATUS });
      this.host.history().push({ role: 'user', content: guidanceForModel(text) });
    }
  }

  /** Persists a partial reply as interrupted and closes any open tool calls. */
  private finishInterrupted(
    partial: string,
    usage: Usage,
    reasoning?: string,
    store: (msg: NewMessage) => unknown = (m) => this.host.persist(m),
    afterTools = false,
  ): TurnResult {
    if (!afterTools || partial) {
      store({
        role: 'assistant',
        content: partial,
        reasoning: reasoning || null,
        status: 'interrupted',
        finish_reason: 'interrupted',
      });
      this.host.history().push({ role: 'assistant', content: partial });
      this.host.emit({
        type: 'message.complete',
        payload: { text: partial, status: 'interrupted', usage: zeroUsage() },
      });
    }
    return { status: 'interrupted', text: partial, usage };
  }
}
