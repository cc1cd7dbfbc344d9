import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../types.js';
import {
  buildRequest,
  continuesWithoutThinking,
  HISTORY_START_TEXT,
  imageSource,
  MAX_IMAGE_BASE64_CHARS,
  toolInput,
  toolUseId,
} from './request.js';

const opts = { model: 'claude-sonnet-4-5', tools: [] };
const call = (id: string, args = '{"a":1}') => ({
  id,
  type: 'function' as const,
  function: { name: 't', arguments: args },
});

describe('anthropic request mapping', () => {
  it('parses tool arguments; bad JSON or a non-object is kept as raw_arguments', () => {
    expect(toolInput('{"path":"x"}')).toEqual({ path: 'x' });
    expect(toolInput('')).toEqual({});
    expect(toolInput('{"path":')).toEqual({ raw_arguments: '{"path":' });
    expect(toolInput('[1,2]')).toEqual({ raw_arguments: '[1,2]' });
  });

  it('turns data URLs into base64 image sources and other URLs into url sources', () => {
    expect(imageSource('data:image/png;base64,AAAA')).toEqual({
      type: 'base64',
      media_type: 'image/png',
      data: 'AAAA',
    });
    expect(imageSource('https://x/y.png')).toEqual({ type: 'url', url: 'https://x/y.png' });
  });

  it('merges consecutive tool results into one user message and keeps user/assistant alternation', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'using tools', tool_calls: [call('c1'), call('c2', 'oops')] },
      { role: 'tool', tool_call_id: 'c1', content: 'r1' },
      { role: 'tool', tool_call_id: 'c2', content: 'r2' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,QQ==' } },
        ],
      },
    ];
    const { body } = buildRequest(messages, opts);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]!.content).toEqual([
      { type: 'text', text: 'using tools' },
      { type: 'tool_use', id: 'c1', name: 't', input: { a: 1 } },
      {
        type: 'tool_use',
        id: 'c2',
        name: 't',
        input: { raw_arguments: 'oops' },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    const last = body.messages[2]!.content;
    expect(last.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text', 'image']);
    expect(last[3]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/jpeg', data: 'QQ==' },
      cache_control: { type: 'ephemeral' },
    });
  });

  it('drops empty messages and starts with a user message', () => {
    const { body } = buildRequest(
      [
        { role: 'assistant', content: 'earlier answer' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'now' },
      ],
      opts,
    );
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0]!.content[0]).toMatchObject({ type: 'text', text: HISTORY_START_TEXT });
    expect(body.system).toBeUndefined();
  });

  it('never puts more than 4 breakpoints, and never on a thinking block', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'system', content: 'later note' },
    ];
    for (let i = 0; i < 6; i++)
      messages.push({ role: 'user', content: `u${i}` }, { role: 'assistant', content: `a${i}` });
    const { body } = buildRequest(messages, opts);
    const json = JSON.stringify(body);
    expect(json.split('cache_control').length - 1).toBe(4);
    expect(body.system![0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.system![1]!.cache_control).toBeUndefined();

    const withThinking = buildRequest(
      [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [call('c1')],
          thinking_blocks: [{ type: 'thinking', thinking: 'hm', signature: 's' }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '' },
      ],
      { ...opts, thinkingBudget: 2048 },
    );
    expect(withThinking.thinkingDropped).toBe(false);
    expect(withThinking.body.messages[1]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'hm',
      signature: 's',
    });
    expect(withThinking.body.messages[2]!.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c1',
      cache_control: { type: 'ephemeral' },
    });
  });

  it('goes without thinking when the continued tool-call message has no thinking blocks', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
    ];
    expect(continuesWithoutThinking(messages)).toBe(true);
    const { body, thinkingDropped } = buildRequest(messages, { ...opts, thinkingBudget: 2048 });
    expect(thinkingDropped).toBe(true);
    expect(body.thinking).toBeUndefined();
    expect(body.max_tokens).toBe(16384);
    expect(continuesWithoutThinking(messages.slice(0, 1))).toBe(false);
  });

  it('sends thinking blocks only when thinking is on, and only before tool calls', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q0' },
      {
        role: 'assistant',
        content: 'no tools',
        thinking_blocks: [{ type: 'thinking', thinking: 't', signature: 's' }],
      },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'a',
        tool_calls: [call('c9')],
        thinking_blocks: [{ type: 'redacted_thinking', data: 'xx' }],
      },
      { role: 'tool', tool_call_id: 'c9', content: 'r' },
      { role: 'user', content: 'q2' },
    ];
    expect(buildRequest(messages, opts).body.messages[3]!.content.map((b) => b.type)).toEqual([
      'text',
      'tool_use',
    ]);
    const on = buildRequest(messages, { ...opts, thinkingBudget: 4096 }).body;
    expect(on.messages[1]!.content.map((b) => b.type)).toEqual(['text']);
    expect(on.messages[3]!.content.map((b) => b.type)).toEqual(['redacted_thinking', 'text', 'tool_use']);
    expect(on.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(on.max_tokens).toBeGreaterThan(4096);
  });

  it('rewrites tool ids the API refuses alike in tool_use and tool_result (history of another provider)', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [call('functions.read_file:0'), call('functions.read_file|0'), call('call_ok-1')],
      },
      { role: 'tool', tool_call_id: 'functions.read_file:0', content: 'a' },
      { role: 'tool', tool_call_id: 'functions.read_file|0', content: 'b' },
      { role: 'tool', tool_call_id: 'call_ok-1', content: 'c' },
    ];
    const { body } = buildRequest(messages, opts);
    const uses = body.messages[1]!.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    const results = body.messages[2]!.content.flatMap((b) =>
      b.type === 'tool_result' ? [b.tool_use_id] : [],
    );
    expect(results).toEqual(uses);
    for (const id of uses) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(new Set(uses).size).toBe(3);
    expect(uses[2]).toBe('call_ok-1');
    expect(toolUseId('')).toMatch(/^[0-9a-f]{8}$/);
  });

  it('leaves out text that is only whitespace (the API refuses such blocks)', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'system', content: ' \n' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '\n\n', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
      { role: 'assistant', content: ' ' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '\t' },
          { type: 'text', text: 'next' },
        ],
      },
    ];
    const { body } = buildRequest(messages, opts);
    expect(body.system).toHaveLength(1);
    const texts = body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
    expect(texts).toEqual(['q', 'next']);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('an image over the 5 MB of the API (base64) becomes a note, so the session is not refused for it', () => {
    const big = 'A'.repeat(MAX_IMAGE_BASE64_CHARS + 4);
    const { body } = buildRequest(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${big}` } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' } },
          ],
        },
      ],
      opts,
    );
    const blocks = body.messages[0]!.content;
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'image']);
    expect(blocks[1]).toMatchObject({ text: expect.stringMatching(/image of 3\.8 MiB was left out.*5 MB/) });
  });
});
