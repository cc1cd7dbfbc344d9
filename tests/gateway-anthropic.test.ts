/**
 * The real daemon on the native Anthropic Messages API: `model.provider: anthropic` with
 * `model.base_url` at the scripted server's Anthropic dialect. A prompt whose answer calls a tool
 * (it runs, its result goes back as a `tool_result`), a streamed reply with reasoning, and
 * `/reasoning` changing the session's thinking budget. Run `npm run build` first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deltaText, is, useGateway } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-anthropic-', (root, url) => {
  writeFileSync(
    join(root, 'config.yaml'),
    `model:\n  provider: anthropic\n  base_url: ${url}\n  default: claude-sonnet-4-5\n  reasoning_effort: low\n`,
  );
  writeFileSync(join(root, '.env'), 'ANTHROPIC_API_KEY=sk-ant-daemon-test\n', { mode: 0o600 });
  writeFileSync(join(root, 'facts.txt'), 'the answer is 42\n');
});

describe('daemon with provider anthropic', () => {
  it('runs a tool call and streams a reply with reasoning', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const before = model.requests.length;
    model.push(
      {
        reasoning: 'I will read the facts file.',
        signature: 'sig-daemon',
        toolCalls: [{ name: 'read_file', arguments: { path: 'facts.txt' } }],
      },
      { reasoning: 'Now I know.', text: 'The file says the answer is 42.', chunkSize: 6 },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'what does facts.txt say?' });
    await client.until(is('turn.end', session.id), 'the turn ends', 20_000);

    const events = client.of(session.id);
    expect(events.find((e) => e.type === 'tool.start')?.payload).toMatchObject({ name: 'read_file' });
    expect(events.find((e) => e.type === 'tool.complete')?.payload).toMatchObject({ ok: true });
    const reasoning = events
      .filter((e) => e.type === 'reasoning.delta')
      .map((e) => (e.payload as { text: string }).text)
      .join('');
    expect(reasoning).toBe('I will read the facts file.Now I know.');
    expect(deltaText(events)).toContain('The file says the answer is 42.');

    const [first, second] = model.requests.slice(before);
    for (const r of [first!, second!]) {
      expect(r.path).toBe('/v1/messages');
      expect(r.headers['x-api-key']).toBe('sk-ant-daemon-test');
      expect(r.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    }
    const msgs = second!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const assistant = msgs.at(-2)!;
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'I will read the facts file.',
      signature: 'sig-daemon',
    });
    const result = msgs.at(-1)!.content.find((b) => b.type === 'tool_result')!;
    expect(String(result.content)).toContain('the answer is 42');
    expect(second!.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('/reasoning shows and changes the effort of the session from its next turn', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const shown = await client.c.request('slash.exec', { session_id: session.id, command: '/reasoning' });
    expect(shown.output).toContain('Reasoning effort: low (model.reasoning_effort of the profile)');
    const set = await client.c.request('slash.exec', { session_id: session.id, command: '/reasoning high' });
    expect(set.output).toBe('Reasoning effort: high (this session), from the next turn.');
    const bad = await client.c.request('slash.exec', { session_id: session.id, command: '/reasoning max' });
    expect(bad.output).toMatch(/Unknown \/reasoning level "max"/);

    const before = model.requests.length;
    model.push({ text: 'thought hard' });
    await client.c.request('prompt.submit', { session_id: session.id, text: 'think' });
    await client.until(is('turn.end', session.id), 'the turn ends', 20_000);
    expect(model.requests[before]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });

    await client.c.request('slash.exec', { session_id: session.id, command: '/reasoning none' });
    model.push({ text: 'quick' });
    const seq = client.lastSeq(session.id);
    await client.c.request('prompt.submit', { session_id: session.id, text: 'fast' });
    await client.until(is('turn.end', session.id, seq), 'the second turn ends', 20_000);
    expect(model.requests.at(-1)!.body).not.toHaveProperty('thinking');
  });
});
