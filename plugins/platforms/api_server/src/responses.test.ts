/** Responses requests and the response built from a turn's events (whole and streamed). */
import { describe, expect, it } from 'vitest';
import { ApiError } from './http.js';
import { ResponseBuilder, callIdOf, readResponsesRequest } from './responses.js';

describe('readResponsesRequest', () => {
  it('reads input, instructions and the continuation fields', () => {
    const r = readResponsesRequest({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'first' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
        { role: 'user', content: 'second' },
      ],
      instructions: 'be terse',
      conversation: 'proj',
      store: false,
    });
    expect(r).toMatchObject({ lastUser: 'second', conversation: 'proj', store: false, stream: false });
    expect(r.instructions).toContain('<client_instructions>\nbe terse\n</client_instructions>');
    expect(r.history.at(-1)).toEqual({ role: 'assistant', content: 'ok' });
  });

  it('takes a previous response’s output sent back as input (a client keeping the conversation)', () => {
    const r = readResponsesRequest({
      input: [
        { role: 'user', content: 'read a' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'read_file',
          arguments: '{"path":"a"}',
          status: 'completed',
        },
        {
          type: 'function_call_output',
          id: 'fco_1',
          call_id: 'call_1',
          output: 'hello',
          status: 'completed',
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'It says hello.', annotations: [] }],
        },
        { role: 'user', content: 'and b?' },
      ],
    });
    expect(r.lastUser).toBe('and b?');
    expect(r.history).toEqual([
      { role: 'user', content: 'read a' },
      {
        role: 'assistant',
        content: '[called read_file({"path":"a"})]\n\n[result of read_file: hello]\n\nIt says hello.',
      },
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no input', {}, 'input'],
    ['both continuations', { input: 'x', previous_response_id: 'resp_1', conversation: 'c' }, 'conversation'],
    [
      'a conversation name too long to keep apart',
      { input: 'x', conversation: 'c'.repeat(201) },
      'conversation',
    ],
    [
      'an image by file id',
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      'input[0].content[0]',
    ],
    [
      'an image that is no data: URL',
      {
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'x' },
              { type: 'input_image', image_url: 'x' },
            ],
          },
        ],
      },
      'input',
    ],
    ['client tools', { input: 'x', tools: [{ type: 'function', name: 'f' }] }, 'tools'],
    ['a bad text.format', { input: 'x', text: { format: { type: 'json_schema' } } }, 'text.format'],
  ])('%s: 400 naming the field', (_n, body, param) => {
    let err: unknown;
    try {
      readResponsesRequest(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, param });
  });
});

describe('text.format', () => {
  it('json_schema (flat, as the Responses API sends it) asks for and checks the JSON', () => {
    const r = readResponsesRequest({
      input: 'who?',
      text: {
        format: { type: 'json_schema', name: 'person', schema: { type: 'object', required: ['name'] } },
      },
    });
    expect(r.format).toMatchObject({ kind: 'json_schema', name: 'person' });
    expect(r.lastUser).toContain('"required":["name"]');
  });
});

/** A started builder, the chunks it wrote, and a way to feed it events. */
function started() {
  const out: string[] = [];
  const b = new ResponseBuilder(
    'm',
    { previous_response_id: null, conversation: null, instructions: null },
    (c) => out.push(c),
  );
  b.start();
  const ev = (type: string, payload: Record<string, unknown> = {}) => b.onEvent({ type, payload });
  return { out, b, ev };
}

describe('ResponseBuilder', () => {
  it('turns messages and tool calls into output items and spec events', () => {
    const { out, b, ev } = started();
    ev('message.start');
    ev('message.delta', { text: 'Let me look.' });
    ev('message.complete', { text: 'Let me look.' });
    ev('tool.start', { tool_id: 't1', name: 'read_file', args: { path: 'a' } });
    ev('tool.complete', { tool_id: 't1', ok: true, summary: 'read', detail: 'hello' });
    ev('message.start');
    ev('message.delta', { text: 'It says ' });
    ev('message.delta', { text: 'hello.' });
    const body = b.complete('It says hello.', { prompt: 10, completion: 5 }) as {
      output: Array<Record<string, unknown>>;
      usage: Record<string, number>;
    };
    expect(body.output.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(body.output[1]).toMatchObject({
      name: 'read_file',
      arguments: '{"path":"a"}',
      status: 'completed',
    });
    expect(body.output[2]).toMatchObject({ call_id: body.output[1]!.call_id, output: 'hello' });
    expect(body.output[3]).toMatchObject({ content: [{ type: 'output_text', text: 'It says hello.' }] });
    expect(body.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    const types = out.map((c) => /^event: (\S+)/.exec(c)![1]);
    expect(types[0]).toBe('response.created');
    expect(types[1]).toBe('response.in_progress');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_text.delta');
    expect(types.filter((t) => t === 'response.output_item.done')).toHaveLength(4);
    const seqs = out.map(
      (c) => (JSON.parse(c.split('data: ')[1]!) as { sequence_number: number }).sequence_number,
    );
    expect(seqs).toEqual(seqs.map((_, i) => i));
  });
});

describe('ResponseBuilder restarts', () => {
  it('a model call restarted after a failure keeps only the retry’s text in the item', () => {
    const { out, b, ev } = started();
    ev('message.start');
    ev('message.delta', { text: 'Starting to ' });
    ev('message.start'); // the stream broke; the retry starts over
    ev('message.delta', { text: 'Fresh answer.' });
    ev('message.complete', { text: 'Fresh answer.' });
    const body = b.complete('Fresh answer.', { prompt: 1, completion: 1 }) as {
      output: Array<{ type: string; content?: Array<{ text: string }> }>;
    };
    expect(body.output).toHaveLength(1);
    expect(body.output[0]!.content![0]!.text).toBe('Fresh answer.');
    const done = out.find((c) => c.startsWith('event: response.output_text.done'))!;
    expect(JSON.parse(done.split('data: ')[1]!)).toMatchObject({ text: 'Fresh answer.' });
  });
});

describe('ResponseBuilder.interrupted', () => {
  it('is the response so far, incomplete, its open message closed with its text', () => {
    const b = new ResponseBuilder('m', {
      previous_response_id: null,
      conversation: null,
      instructions: null,
    });
    b.onEvent({ type: 'message.start', payload: {} });
    b.onEvent({ type: 'message.delta', payload: { text: 'half of it' } });
    expect(b.interrupted({ prompt: 3, completion: 2 })).toMatchObject({
      status: 'incomplete',
      output: [
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'half of it' }] },
      ],
      usage: { total_tokens: 5 },
    });
  });
});

describe('callIdOf', () => {
  it('keeps a call_ id as the model gave it, prefixes others', () => {
    expect(callIdOf('call_abc123')).toBe('call_abc123');
    expect(callIdOf('toolu_01A')).toBe('call_toolu_01A');
  });
});
