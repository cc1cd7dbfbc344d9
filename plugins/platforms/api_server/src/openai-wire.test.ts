import { describe, expect, it } from 'vitest';
import { addAnswerUsage, completion, namedSse, usageChunk, type AnswerUsage } from './openai-wire.js';

const meta = { id: 'chatcmpl-1', created: 1, model: 'hermes-agent' };

describe('usage of an answer', () => {
  it('sums the calls of a turn and reports OpenRouter-style cost and cached tokens', () => {
    const u: AnswerUsage = { prompt: 0, completion: 0 };
    addAnswerUsage(u, {
      prompt_tokens: 1000,
      completion_tokens: 10,
      cached_tokens: 600,
      cost_usd: 0.0012,
      cost_status: 'priced',
    });
    addAnswerUsage(u, {
      prompt_tokens: 500,
      completion_tokens: 5,
      cost_usd: 0.000301,
      cost_status: 'priced',
    });
    expect((completion(meta, 'hi', u) as { usage: unknown }).usage).toEqual({
      prompt_tokens: 1500,
      completion_tokens: 15,
      total_tokens: 1515,
      prompt_tokens_details: { cached_tokens: 600 },
      cost: 0.001501,
    });
  });

  it('gives no cost when a call had no known price; a local model costs 0', () => {
    const u: AnswerUsage = { prompt: 0, completion: 0 };
    addAnswerUsage(u, { prompt_tokens: 10, completion_tokens: 1, cost_usd: 0.5, cost_status: 'priced' });
    addAnswerUsage(u, { prompt_tokens: 10, completion_tokens: 1, cost_status: 'unknown' });
    expect((usageChunk(meta, u) as { usage: object }).usage).not.toHaveProperty('cost');
    const local: AnswerUsage = { prompt: 0, completion: 0 };
    addAnswerUsage(local, { prompt_tokens: 10, completion_tokens: 1, cost_usd: 0, cost_status: 'local' });
    // an interrupted reply (no cost_status) adds tokens only
    addAnswerUsage(local, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect((usageChunk(meta, local) as { usage: object }).usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 1,
      total_tokens: 11,
      cost: 0,
    });
  });

  it('stays the plain OpenAI shape when nothing was priced', () => {
    expect((completion(meta, 'hi') as { usage: object }).usage).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
    });
  });
});

describe('namedSse', () => {
  it('a named event whose data reads as a chunk without text, with one choice to index', () => {
    const e = namedSse('hermes.tool.progress', { object: 'hermes.tool.progress', tool: 'read_file' });
    expect(e.startsWith('event: hermes.tool.progress\ndata: ')).toBe(true);
    const data = JSON.parse(e.split('data: ')[1]!) as { choices: Array<{ delta: { content?: string } }> };
    expect(data.choices).toHaveLength(1);
    expect(data.choices[0]!.delta.content).toBeUndefined();
    expect(data).toMatchObject({ object: 'hermes.tool.progress', tool: 'read_file' });
  });
});
