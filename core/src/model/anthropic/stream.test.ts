import { describe, expect, it } from 'vitest';
import { HandlerError } from '../stream-assembler.js';
import { AnthropicStreamAssembler, finishReasonOf } from './stream.js';

describe('anthropic stream assembler', () => {
  it('assembles thinking (with signature), text and tool calls; maps usage and stop reason', () => {
    const thoughts: string[] = [];
    const texts: string[] = [];
    const a = new AnthropicStreamAssembler({
      onReasoning: (d) => thoughts.push(d),
      onText: (d) => texts.push(d),
    });
    a.push({
      type: 'message_start',
      message: {
        model: 'claude-x',
        usage: {
          input_tokens: 5,
          cache_read_input_tokens: 50,
          cache_creation_input_tokens: 0,
          output_tokens: 1,
        },
      },
    });
    a.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm ' } });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'ok' } });
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } });
    a.push({ type: 'content_block_stop', index: 0 });
    a.push({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
    a.push({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } });
    a.push({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_9', name: 'run' },
    });
    a.push({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"c":' },
    });
    a.push({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '"ls"}' },
    });
    a.push({
      type: 'content_block_start',
      index: 3,
      content_block: { type: 'tool_use', id: 'toolu_10', name: 'noargs' },
    });
    a.push({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 30, output_tokens_details: { thinking_tokens: 12 } },
    });
    a.push({ type: 'message_stop' });
    const r = a.result('asked', 'anthropic');
    expect(thoughts).toEqual(['hmm ', 'ok']);
    expect(texts).toEqual(['Hi']);
    expect(r).toMatchObject({
      text: 'Hi',
      reasoning: 'hmm ok',
      finishReason: 'tool_calls',
      model: 'claude-x',
    });
    expect(r.thinkingBlocks).toEqual([{ type: 'thinking', thinking: 'hmm ok', signature: 'SIG' }]);
    expect(r.toolCalls).toEqual([
      { id: 'toolu_9', type: 'function', function: { name: 'run', arguments: '{"c":"ls"}' } },
      { id: 'toolu_10', type: 'function', function: { name: 'noargs', arguments: '{}' } },
    ]);
    expect(r.usage).toEqual({
      prompt_tokens: 55,
      completion_tokens: 30,
      total_tokens: 85,
      cached_tokens: 50,
      cache_write_tokens: 0,
      reasoning_tokens: 12,
    });
  });

  it('keeps redacted thinking and maps stop reasons', () => {
    const a = new AnthropicStreamAssembler();
    a.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'redacted_thinking', data: 'ENC' },
    });
    expect(a.thinkingBlocks()).toEqual([{ type: 'redacted_thinking', data: 'ENC' }]);
    expect(a.result('m', 'anthropic').finishReason).toBe('stop');
    expect(finishReasonOf('end_turn')).toBe('stop');
    expect(finishReasonOf('stop_sequence')).toBe('stop');
    expect(finishReasonOf('max_tokens')).toBe('length');
    expect(finishReasonOf('refusal')).toBe('refusal');
  });

  it('wraps a throwing handler so it is rethrown, never retried', () => {
    const a = new AnthropicStreamAssembler({
      onText: () => {
        throw new Error('boom');
      },
    });
    a.push({ type: 'content_block_start', index: 0, content_block: { type: 'text' } });
    expect(() =>
      a.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }),
    ).toThrow(HandlerError);
    expect(a.partial().text).toBe('x');
  });
});
