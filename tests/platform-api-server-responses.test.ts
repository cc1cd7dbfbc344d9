/**
 * `POST /v1/responses` with the `openai` client against the real daemon and the scripted model:
 * instructions in the system prompt, chains by `previous_response_id` and by named
 * `conversation` continuing one session, stored responses read and deleted (kept in state.db),
 * the spec-native stream with the agent's own tool calls as completed items. Run `npm run build`
 * first.
 */
import { join } from 'node:path';
import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { lastMessages, lastUserTexts, startApiServerDaemon } from './support/api-server-daemon.js';
import { stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let root: string;
let client: OpenAI;

const lastRequest = () => lastMessages(model);
const userTexts = (): string[] => lastUserTexts(model);

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, client } = await startApiServerDaemon(model));
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('api_server /v1/responses', () => {
  it('an input list starts the conversation with its earlier messages as real turns', async () => {
    model.push({ text: 'You like tea.' });
    const r = await client.responses.create({
      model: 'hermes-agent',
      store: false,
      input: [
        { role: 'user', content: 'I like tea.' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'What do I like?' },
      ],
    });
    expect(r.output_text).toBe('You like tea.');
    expect(
      lastRequest()
        .slice(1)
        .map((m) => [m.role, m.content]),
    ).toEqual([
      ['user', 'I like tea.'],
      ['assistant', 'Noted.'],
      ['user', 'What do I like?'],
    ]);
  });

  it('chains with previous_response_id; instructions go to the system prompt; stored in state.db', async () => {
    model.push({ text: 'Noted: 42.', usage: { prompt_tokens: 40, completion_tokens: 4 } });
    const first = await client.responses.create({
      model: 'hermes-agent',
      instructions: 'Reply in one line.',
      input: 'Remember the number 42.',
    });
    expect(first.output_text).toBe('Noted: 42.');
    expect(first.usage).toMatchObject({ input_tokens: 40, output_tokens: 4, total_tokens: 44 });
    expect(lastRequest()[0]!.content).toContain(
      '<client_instructions>\nReply in one line.\n</client_instructions>',
    );

    model.push({ text: 'It was 42.' });
    const second = await client.responses.create({
      model: 'hermes-agent',
      input: 'Which number?',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('It was 42.');
    expect(second.previous_response_id).toBe(first.id);
    // the same session: the first turn is in the history the model receives
    expect(userTexts()).toEqual(['Remember the number 42.', 'Which number?']);

    const again = await client.responses.retrieve(second.id);
    expect(again.output_text).toBe('It was 42.');
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    try {
      expect(db.apiResponses.get(first.id)?.chat_id).toBe(db.apiResponses.get(second.id)?.chat_id);
    } finally {
      db.close();
    }
    await client.responses.delete(second.id);
    await expect(client.responses.retrieve(second.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.responses.create({ model: 'hermes-agent', input: 'x', previous_response_id: 'resp_nope' }),
    ).rejects.toMatchObject({ status: 404, error: { param: 'previous_response_id' } });
  });

  it('responses.parse with a zod text format gets a checked JSON answer', async () => {
    model.push({ text: '{"city": "Paris"}' });
    const r = await client.responses.parse({
      model: 'hermes-agent',
      input: 'Capital of France, as JSON.',
      text: { format: zodTextFormat(z.object({ city: z.string() }), 'answer') },
    });
    expect(r.output_parsed).toEqual({ city: 'Paris' });
    expect(userTexts().at(-1)).toContain('"required":["city"]');
  });

  it('a named conversation continues its latest response', async () => {
    model.push({ text: 'one' }, { text: 'two' });
    await client.responses.create({
      model: 'hermes-agent',
      input: 'first in proj',
      conversation: 'proj',
    } as never);
    await client.responses.create({
      model: 'hermes-agent',
      input: 'second in proj',
      conversation: 'proj',
    } as never);
    expect(userTexts()).toEqual(['first in proj', 'second in proj']);
  });

  it('streams spec-native events with the agent’s tool calls as completed items', async () => {
    model.push(
      { text: 'Let me read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
      { text: 'It is missing.' },
    );
    const stream = await client.responses.create({
      model: 'hermes-agent',
      input: 'read missing.txt',
      stream: true,
    });
    const types: string[] = [];
    const done: Array<{ type: string; status?: string; name?: string }> = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.output_item.done') done.push(e.item as never);
      if (e.type === 'response.completed') completed = e.response;
    }
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe('Let me read it.It is missing.');
    expect(done.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expect(done[1]).toMatchObject({ name: 'read_file', status: 'completed' });
    expect(completed?.output.map((i) => i.type)).toEqual(done.map((i) => i.type));
    expect(completed?.usage?.total_tokens).toBeGreaterThan(0);
  });
});
