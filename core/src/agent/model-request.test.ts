import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import type { ChatRequest, ChatResult, ModelClient, StreamHandlers } from '../model/types.js';
import type { AgentEvent } from '../protocol/events.js';
import type { ToolDefinition } from '../tools/types.js';
import { requestModel } from './model-request.js';

const result: ChatResult = {
  text: 'hi',
  reasoning: '',
  toolCalls: [],
  finishReason: 'stop',
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  model: 'm',
  provider: 'p',
};

/** A model that plays `script` on the handlers, records the request and answers `result`. */
function scriptedModel(script: (h: StreamHandlers) => void): { model: ModelClient; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const model: ModelClient = {
    defaultModel: 'default-model',
    stream(req, handlers = {}) {
      requests.push(req);
      script(handlers);
      return Promise.resolve(result);
    },
  };
  return { model, requests };
}

const tool: ToolDefinition = {
  name: 'echo',
  description: 'echoes',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  handler: () => Promise.resolve({ ok: true, content: '' }),
};

describe('requestModel', () => {
  it('sends the system prompt, history, tool schemas, model and effort; streams deltas as events', async () => {
    const { model, requests } = scriptedModel((h) => {
      h.onText?.('he');
      h.onReasoning?.('hm');
      h.onNotice?.('no effort here');
    });
    const events: AgentEvent[] = [];
    const deltas: [string, string][] = [];
    const config = ConfigSchema.parse({ model: { reasoning_effort: 'high' } });
    const out = await requestModel(
      {
        opts: { model, modelId: 'x/y', systemPrompt: 'sys', config },
        history: [{ role: 'user', content: 'q' }],
        tools: [tool],
        emit: (e) => events.push(e),
      },
      new AbortController().signal,
      { onDelta: (t, r) => deltas.push([t, r]), reset: () => deltas.push(['reset', '']) },
    );
    expect(out).toBe(result);
    const [req] = requests;
    expect(req!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
    ]);
    expect(req!.model).toBe('x/y');
    expect(req!.reasoningEffort).toBe('high');
    expect(req!.tools?.map((t) => t.function.name)).toEqual(['echo']);
    expect(deltas).toEqual([
      ['he', ''],
      ['', 'hm'],
    ]);
    expect(events.map((e) => e.type)).toEqual(['message.delta', 'reasoning.delta', 'error']);
  });

  it('a retry that restarts the reply resets the checkpoint and starts a new message', async () => {
    const { model } = scriptedModel((h) =>
      h.onRetry?.({
        attempt: 1,
        delayMs: 10.4,
        kind: 'server',
        provider: 'p',
        message: 'HTTP 502 from p — retry 1/3 in 10 ms',
        restart: true,
      }),
    );
    const events: AgentEvent[] = [];
    let resets = 0;
    await requestModel(
      {
        opts: { model, systemPrompt: 's', config: ConfigSchema.parse({}) },
        history: [],
        tools: [],
        emit: (e) => events.push(e),
      },
      new AbortController().signal,
      { onDelta: () => undefined, reset: () => resets++ },
    );
    expect(resets).toBe(1);
    expect(events).toEqual([
      { type: 'message.start', payload: { role: 'assistant' } },
      {
        type: 'status.update',
        payload: { state: 'retrying', text: 'server: HTTP 502 from p — retry 1/3 in 10 ms' },
      },
    ]);
  });
});
