// Stream assembly from hand-written chunks, including the irregular shapes some providers send.
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { HandlerError, StreamAssembler } from './stream-assembler.js';

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  }) as unknown as ChatCompletionChunk;

describe('StreamAssembler', () => {
  it('assembles interleaved tool calls by index, split names and missing ids', () => {
    const a = new StreamAssembler();
    a.push(chunk({ role: 'assistant', content: '' }));
    a.push(
      chunk({
        tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'read', arguments: '' } }],
      }),
    );
    a.push(chunk({ tool_calls: [{ index: 0, function: { name: 'term', arguments: '{"c' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, function: { name: 'inal', arguments: '":1}' } }] }));
    a.push(chunk({ tool_calls: [{ index: 1, function: { name: 'read', arguments: '{}' } }] })); // repeated name
    a.push(chunk({}, 'tool_calls'));
    const r = a.result('m', 'p');
    expect(r.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ['terminal', '{"c":1}'],
      ['read', '{}'],
    ]);
    expect(r.toolCalls[0]!.id).toMatch(/^call_0_[0-9a-f]{8}$/);
    expect(r.toolCalls[0]!.id).toBe(a.partial().toolCalls[0]!.id); // stable
    expect(r.toolCalls[1]!.id).toBe('b');
    expect(r.finishReason).toBe('tool_calls');
  });

  it('reports zero usage when none came, and cached tokens when reported', () => {
    const a = new StreamAssembler();
    a.push(chunk({ content: 'hi' }));
    expect(a.result('m', 'p')).toMatchObject({
      text: 'hi',
      finishReason: 'stop',
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    const b = new StreamAssembler();
    b.push({
      ...chunk({}),
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 8 },
      },
    } as ChatCompletionChunk);
    expect(b.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, cached_tokens: 8 });
  });

  it("takes OpenRouter's cache writes and the reasoning share of the completion", () => {
    const b = new StreamAssembler();
    b.push({
      ...chunk({}),
      choices: [],
      usage: {
        prompt_tokens: 194,
        completion_tokens: 20,
        total_tokens: 214,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100 },
        completion_tokens_details: { reasoning_tokens: 12 },
      },
    } as unknown as ChatCompletionChunk);
    expect(b.usage).toEqual({
      prompt_tokens: 194,
      completion_tokens: 20,
      total_tokens: 214,
      cached_tokens: 0,
      cache_write_tokens: 100,
      reasoning_tokens: 12,
    });
  });

  it('wraps a throwing handler so the client rethrows it instead of retrying', () => {
    const boom = new Error('ui broke');
    const a = new StreamAssembler({
      onText: () => {
        throw boom;
      },
    });
    let caught: unknown;
    try {
      a.push(chunk({ content: 'x' }));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(HandlerError);
    expect((caught as HandlerError).original).toBe(boom);
  });
});
