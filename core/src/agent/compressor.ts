/**
 * Context compression (behaviour of hermes-agent's
 * `agent/context_compressor.py`): when the prompt reaches `compression.threshold` of the model's
 * context window, the middle of the history is replaced by a summary written by the model (or
 * `compression.summary_model`). Where to cut is decided in compression-plan.ts.
 *
 * The compressed continuation is stored as a CHILD session (`parent_session_id` = the old id) that
 * holds the system prompt and the compressed history; the old session is ended with reason
 * `compressed` and keeps every message it had, so nothing stored is lost. A store without session
 * operations (a bare `TranscriptStore`) compresses in memory only and keeps the session id.
 */
import type { CompressionReason } from '../protocol/events.js';
import type { HermesConfig } from '../config/schema.js';
import type { ChatMessage, ChatResult, ModelClient } from '../model/types.js';
import { contentText } from '../model/content.js';
import { storedFromContent } from '../images/parts.js';
import type { Usage } from '../protocol/events.js';
import type { CreateSessionOptions, NewMessage, SessionRecord } from '../state/types.js';
import type { TranscriptStore } from './agent.js';
import {
  alignTailStart,
  assembleCompressed,
  buildSummaryRequest,
  estimateTokens,
  headEndOf,
  planCompression,
  type CompressionPlan,
} from './compression-plan.js';

export type { CompressionReason } from '../protocol/events.js';

/** Protected tail used when the configured one leaves nothing to compress (overflow, `/compact`). */
export const FALLBACK_PROTECT_LAST_N = 4;

/** Session operations a store needs for child sessions; `SessionDB` has them all. */
export interface SessionForkStore {
  getSession(id: string): Pick<SessionRecord, 'source' | 'title' | 'model' | 'cwd'> | undefined;
  createSession(opts: CreateSessionOptions): { id: string };
  appendMessages(sessionId: string, msgs: readonly NewMessage[]): number[];
  endSession(id: string, reason: string): void;
}

/** The store as a `SessionForkStore` when it has the session operations, else undefined. */
export function forkStoreOf(store: object): SessionForkStore | undefined {
  const s = store as Partial<SessionForkStore>;
  return typeof s.getSession === 'function' &&
    typeof s.createSession === 'function' &&
    typeof s.appendMessages === 'function' &&
    typeof s.endSession === 'function'
    ? (s as SessionForkStore)
    : undefined;
}

/** A history message as a stored message. */
export function toNewMessage(m: ChatMessage): NewMessage {
  const text = contentText(m.content);
  switch (m.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: text,
        tool_calls: m.tool_calls?.length ? JSON.stringify(m.tool_calls) : null,
        status: 'complete',
      };
    case 'tool':
      return { role: 'tool', content: text, tool_call_id: m.tool_call_id, tool_name: m.name ?? null };
    case 'user': {
      const { text: words, images } = storedFromContent(m.content);
      return {
        role: 'user',
        content: words,
        ...(images.length ? { attachments: JSON.stringify(images) } : {}),
      };
    }
    default:
      return { role: m.role, content: text };
  }
}

/** What the compressor needs from its agent. */
export interface CompressorOptions {
  config: HermesConfig;
  model: ModelClient;
  /** Where the summary call's usage is counted and child sessions are made. */
  store: TranscriptStore;
  /**
   * Told each summary call (its usage priced and stored by the agent); absent: its tokens go to
   * `store.addUsage`.
   */
  onCall?: (sessionId: string, result: ChatResult) => void;
  /** The model's context window, tokens. */
  contextWindow: number;
}

/** One compression request. */
export interface CompressionInput {
  sessionId: string;
  /** The session's system prompt (stored first in the child session). */
  systemPrompt: string;
  /** The history without the system message. */
  history: readonly ChatMessage[];
  /** Prompt tokens of the latest model call (0 when unknown). */
  contextTokens: number;
  reason: CompressionReason;
  /** `/compact <focus>`: what the summary should keep in most detail. */
  focus?: string;
  signal: AbortSignal;
  /** Called once something will be compressed, before the summary call. */
  onStart?: () => void;
}

/** The result of a compression. */
export interface CompressionOutcome {
  history: ChatMessage[];
  /** The session the conversation continues in (the child; the same id without a fork store). */
  sessionId: string;
  parentSessionId: string;
  /** Context before (the larger of the last reported prompt tokens and an estimate), tokens. */
  beforeTokens: number;
  /** Estimated context after (system prompt + compressed history), tokens. */
  afterTokens: number;
  messagesBefore: number;
  messagesAfter: number;
  /** Compressions done by this compressor so far, this one included. */
  compressions: number;
  /** Usage of the summary call. */
  usage: Usage;
}

/** Compresses one agent's history; keeps the count of compressions. */
export class ContextCompressor {
  /** Compressions done so far. */
  compressions = 0;

  constructor(private readonly opts: CompressorOptions) {}

  /** Prompt tokens at which compression starts: `threshold × window`. */
  get thresholdTokens(): number {
    return Math.floor(this.opts.config.compression.threshold * this.opts.contextWindow);
  }

  /** True when `compression.enabled` and `contextTokens` reached the threshold. */
  shouldCompress(contextTokens: number): boolean {
    return this.opts.config.compression.enabled && contextTokens > 0 && contextTokens >= this.thresholdTokens;
  }

  /** Rough length asked of a summary: 5 % of the window, within 500..4,000 tokens. */
  get summaryTargetTokens(): number {
    return Math.min(4_000, Math.max(500, Math.round(0.05 * this.opts.contextWindow)));
  }

  /**
   * Picks the middle: the configured protected tail, extended while the compressed context stays
   * within `target_ratio × window`; for `overflow` and `manual`, when that leaves nothing, a tail
   * of `FALLBACK_PROTECT_LAST_N` messages.
   */
  plan(
    systemPrompt: string,
    history: readonly ChatMessage[],
    reason: CompressionReason,
  ): CompressionPlan | undefined {
    const { compression } = this.opts.config;
    const protectLastN = compression.protect_last_n;
    const target = compression.target_ratio * this.opts.contextWindow;
    const fixed =
      estimateTokens([{ role: 'system', content: systemPrompt }]) +
      estimateTokens(history.slice(0, headEndOf(history))) +
      estimateTokens(history.slice(alignTailStart(history, history.length - protectLastN))) +
      this.summaryTargetTokens;
    const planned = planCompression(history, { protectLastN, tailTokenBudget: Math.max(0, target - fixed) });
    if (planned || reason === 'threshold') return planned;
    return planCompression(history, {
      protectLastN: Math.min(protectLastN, FALLBACK_PROTECT_LAST_N),
      tailTokenBudget: 0,
    });
  }

  /**
   * Summarises the middle of the history and, with a fork store, stores the result as a child
   * session and ends the old one (`end_reason` `compressed`).
   * @returns undefined when there is nothing to compress.
   * @throws ModelError from the summary call (`aborted` on interrupt); Error when the summary is
   *   empty; SessionDBError when the child session cannot be stored (the history is then unchanged).
   */
  async compress(input: CompressionInput): Promise<CompressionOutcome | undefined> {
    const { history, systemPrompt, sessionId } = input;
    const plan = this.plan(systemPrompt, history, input.reason);
    if (!plan) return undefined;
    const beforeEstimate = estimateTokens([{ role: 'system', content: systemPrompt }, ...history]);
    input.onStart?.();
    const summaryModel = this.opts.config.compression.summary_model;
    const result = await this.opts.model.stream({
      messages: buildSummaryRequest(
        history.slice(plan.headEnd, plan.tailStart),
        this.summaryTargetTokens,
        input.focus,
      ),
      tools: [],
      ...(summaryModel ? { model: summaryModel } : {}),
      signal: input.signal,
    });
    if (this.opts.onCall) this.opts.onCall(sessionId, result);
    else this.opts.store.addUsage(sessionId, result.usage.prompt_tokens, result.usage.completion_tokens);
    if (!result.text.trim()) throw new Error('the summary model returned no text');
    const compressed = assembleCompressed(history, plan, result.text);

    let newId = sessionId;
    const fork = forkStoreOf(this.opts.store);
    if (fork) {
      const parent = fork.getSession(sessionId);
      const child = fork.createSession({
        source: parent?.source ?? 'cli',
        title: parent?.title ?? null,
        model: parent?.model ?? null,
        cwd: parent?.cwd ?? null,
        parentSessionId: sessionId,
      });
      fork.appendMessages(child.id, [
        { role: 'system', content: systemPrompt },
        ...compressed.map(toNewMessage),
      ]);
      try {
        fork.endSession(sessionId, 'compressed');
      } catch {
        /* bookkeeping only: the child is stored and linked */
      }
      newId = child.id;
    }
    this.compressions++;
    return {
      history: compressed,
      sessionId: newId,
      parentSessionId: sessionId,
      beforeTokens: Math.max(input.contextTokens, beforeEstimate),
      afterTokens: estimateTokens([{ role: 'system', content: systemPrompt }, ...compressed]),
      messagesBefore: history.length,
      messagesAfter: compressed.length,
      compressions: this.compressions,
      usage: result.usage,
    };
  }
}
