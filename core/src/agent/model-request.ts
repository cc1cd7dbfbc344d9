/**
 * One streamed model request of a turn: the system prompt and history sent with the turn's tool
 * schemas, model id and reasoning effort; streamed text and reasoning shown as `message.delta` /
 * `reasoning.delta` and fed to the stream checkpoint; provider notices and retries told as
 * events (a retry that restarts the reply starts a new message and resets the checkpoint).
 */
import type { ChatMessage, ChatResult } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import { toolSchemas } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';
import type { AgentOptions } from './agent-types.js';

/** What a request is made of. */
export interface ModelRequest {
  opts: Pick<AgentOptions, 'model' | 'modelId' | 'systemPrompt' | 'config'>;
  /** The conversation so far (no system message). */
  history: readonly ChatMessage[];
  tools: ToolDefinition[];
  /** Emits an event of the turn (never throws). */
  emit(event: AgentEvent): void;
}

/** Receives the streamed reply so far (stream-checkpoint.ts). */
export interface StreamSink {
  onDelta(text: string, reasoning: string): void;
  /** The reply restarts: what was received so far is dropped. */
  reset(): void;
}

/**
 * Streams one model reply (see the file comment).
 * @param signal stops the stream.
 * @returns the model's result.
 * @throws ModelError as the model client throws it (`aborted` on `signal`, with the partial reply).
 */
export function requestModel(
  req: ModelRequest,
  signal: AbortSignal,
  checkpoint: StreamSink,
): Promise<ChatResult> {
  const { opts, emit } = req;
  const onDelta = (t: string, r: string): void => checkpoint.onDelta(t, r);
  const messages: ChatMessage[] = [{ role: 'system', content: opts.systemPrompt }, ...req.history];
  return opts.model.stream(
    {
      messages,
      tools: toolSchemas(req.tools),
      signal,
      ...(opts.modelId ? { model: opts.modelId } : {}),
      ...(opts.config.model.reasoning_effort ? { reasoningEffort: opts.config.model.reasoning_effort } : {}),
    },
    {
      onNotice: (message) => emit({ type: 'error', payload: { message, kind: 'notice' } }),
      onText: (d) => {
        onDelta(d, '');
        emit({ type: 'message.delta', payload: { text: d } });
      },
      onReasoning: (d) => {
        onDelta('', d);
        emit({ type: 'reasoning.delta', payload: { text: d } });
      },
      onRetry: (info) => {
        if (info.restart) {
          // text already shown came from a failed attempt: frontends drop it on message.start
          checkpoint.reset();
          emit({ type: 'message.start', payload: { role: 'assistant' } });
        }
        emit({
          type: 'status.update',
          payload: {
            state: 'retrying',
            // the message already says what comes next (retry N/M in X ms, another key, a fallback)
            text: `${info.kind}: ${info.message}`,
          },
        });
      },
    },
  );
}
