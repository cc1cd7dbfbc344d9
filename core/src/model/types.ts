/**
 * Types of the model client: OpenAI Chat Completions messages and the result of one streamed call.
 */
import type { Usage } from '../protocol/events.js';
import type { ReasoningEffort } from './reasoning.js';

/** One tool call requested by the model (OpenAI shape). `arguments` is the raw JSON text. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * One part of a user message with more than text (OpenAI Chat Completions content parts): text,
 * or an image as a `data:<mime>;base64,…` URL.
 */
export type UserContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };

/**
 * A thinking block of an Anthropic answer, kept exactly as received: with extended thinking and
 * tools, the assistant message before the tool results must send its thinking blocks back
 * unchanged (signature included) in the next request of the same turn.
 */
export type ThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/**
 * A message as sent to Chat Completions. `thinking_blocks` (assistant) is carried in memory for
 * the Anthropic Messages API only; the OpenAI path never sends it.
 */
export type ChatMessage =
  | {
      role: 'system';
      content: string | Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
    }
  | { role: 'user'; content: string | UserContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      reasoning?: string;
      thinking_blocks?: ThinkingBlock[];
    }
  | { role: 'tool'; content: string; tool_call_id: string; name?: string };

/** JSON schema of one tool as offered to the model. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Input of one model call. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** Overrides the configured model id for this call. */
  model?: string;
  /**
   * Reasoning effort of this call (reasoning.ts); undefined: `model.reasoning_effort` of the
   * client's config, and when that is unset too, the provider's default.
   */
  reasoningEffort?: ReasoningEffort;
  signal?: AbortSignal;
}

/** Callbacks while a call streams. */
export interface StreamHandlers {
  onText?(delta: string): void;
  onReasoning?(delta: string): void;
  /**
   * Something the user should know once (not at every call): e.g. the reasoning effort is not
   * supported by this provider/model and requests go without it.
   */
  onNotice?(message: string): void;
  /**
   * A transient failure is being retried, another key of the provider is being tried, or a
   * fallback provider is being tried. Called once per new attempt, before waiting `delayMs`.
   * When `restart` is true, deltas of the failed attempt were already delivered: the next attempt
   * streams its answer from the beginning, so the caller should drop what it showed so far.
   */
  onRetry?(info: {
    /** 1-based count of retries within this call. */
    attempt: number;
    delayMs: number;
    /** Kind of the failure that caused this retry. */
    kind: ModelErrorKind;
    /** Provider of the next attempt. */
    provider: string;
    message: string;
    /** Model of the next attempt. */
    model?: string;
    restart?: boolean;
  }): void;
}

/** The outcome of one completed (possibly partial) model call. */
export interface ChatResult {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** Anthropic thinking blocks in answer order (signatures included), when the API sent any. */
  thinkingBlocks?: ThinkingBlock[];
  /** `stop`, `tool_calls`, `length`, … as reported by the provider. */
  finishReason: string;
  usage: Usage;
  /** Model id and provider name that actually answered. */
  model: string;
  provider: string;
  /** Base URL of the endpoint that answered, when known (pricing tells local servers by it). */
  baseURL?: string;
}

/** Error classes. */
export type ModelErrorKind =
  'rate_limit' | 'server' | 'timeout' | 'auth' | 'context_overflow' | 'bad_request' | 'aborted' | 'network';

/** The streaming client the agent loop talks to. Retries, key rotation and fallback happen inside. */
export interface ModelClient {
  /**
   * Runs one streaming Chat Completions call.
   * @throws ModelError (classified) when every retry and fallback failed, or `aborted` when the
   *   signal fired; on abort, `partial` on the error carries the text streamed so far.
   */
  stream(req: ChatRequest, handlers?: StreamHandlers): Promise<ChatResult>;
  /** The model id used when a request does not name one. */
  readonly defaultModel: string;
}
