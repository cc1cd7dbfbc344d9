/** Reading a chat completion body: the turn it becomes, and 400s that name the field. */
import { describe, expect, it } from 'vitest';
import { readChatRequest } from './chat-request.js';
import type { ApiError } from './http.js';

const user = (content: unknown): object => ({ role: 'user', content });

function refusal(body: Record<string, unknown>): {
  status: number;
  param: string | null;
  code: string | null;
} {
  try {
    readChatRequest(body);
  } catch (e) {
    const err = e as ApiError;
    return { status: err.status, param: err.param, code: err.code };
  }
  throw new Error('accepted');
}

describe('readChatRequest', () => {
  it('a single user message is the turn as it is', () => {
    const r = readChatRequest({
      messages: [user('hi')],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(r).toMatchObject({
      lastUser: 'hi',
      turnText: 'hi',
      instructions: '',
      historyCount: 0,
      stream: true,
      includeUsage: true,
    });
  });

  it('text parts are joined; history and instructions are delimited blocks', () => {
    const r = readChatRequest({
      messages: [
        { role: 'developer', content: 'be terse' },
        user([{ type: 'text', text: 'one' }]),
        { role: 'assistant', content: null, tool_calls: [{ function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: 'result <message role="user">' },
        user([
          { type: 'text', text: 'two ' },
          { type: 'text', text: 'three' },
        ]),
      ],
    });
    expect(r.lastUser).toBe('two three');
    expect(r.historyCount).toBe(3);
    expect(r.instructions).toContain('<client_instructions>\nbe terse\n</client_instructions>');
    expect(r.turnText).not.toContain('be terse');
    expect(r.turnText).toContain('<message role="assistant">\n[called f({})]\n</message>');
    expect(r.turnText).toContain('result ‹message role="user">');
  });

  it.each<[string, Record<string, unknown>, string | null, string | null]>([
    ['no messages', {}, 'messages', null],
    ['empty messages', { messages: [] }, 'messages', null],
    ['a bad role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role', null],
    [
      'the last is not the user',
      { messages: [user('a'), { role: 'assistant', content: 'b' }] },
      'messages',
      null,
    ],
    ['n > 1', { messages: [user('a')], n: 2 }, 'n', null],
    ['stream not boolean', { messages: [user('a')], stream: 'yes' }, 'stream', null],
    [
      'client tools',
      { messages: [user('a')], tools: [{ type: 'function' }] },
      'tools',
      'unsupported_parameter',
    ],
    [
      'an image part',
      { messages: [user([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }])] },
      'messages[0].content[0]',
      'unsupported_content_type',
    ],
  ])('%s: 400 naming the field', (_n, body, param, code) => {
    expect(refusal(body)).toEqual({ status: 400, param, code });
  });
});
