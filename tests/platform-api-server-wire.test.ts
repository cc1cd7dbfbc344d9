/**
 * The API server on the wire, as curl and hand-written clients see it (the real daemon, the
 * scripted model): `curl -N` gets each event as it is written and its disconnect stops the turn;
 * malformed JSON, a form body, a huge body (declared or chunked), a missing or wrong key, unknown
 * routes and bad Responses requests get OpenAI-shaped errors with the right status, and nothing
 * hangs; a dangerous command in a turn started from the API is denied — the command does not run,
 * the client reads why (chat: a notice in the text; Responses: the blocked call's output item), the
 * model gets the refusal. Run `npm run build` first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { API_KEY, startApiServerDaemon } from './support/api-server-daemon.js';
import { stopDaemon } from './support/platform-daemon.js';

const HAVE_CURL = spawnSync('curl', ['--version']).status === 0;
if (!HAVE_CURL) console.warn('[platform-api-server-wire] curl is not installed: its test is skipped');

let model: FakeModelServer;
let root: string;
let base: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, base } = await startApiServerDaemon(model));
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

const auth = { authorization: `Bearer ${API_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

/** POSTs `body` (sent as is) to `path`; the status and the parsed JSON answer. */
async function post(
  path: string,
  body: BodyInit,
  headers: Record<string, string> = json,
): Promise<{ status: number; body: { error?: Record<string, unknown> }; type: string | null }> {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: r.status, type: r.headers.get('content-type'), body: (await r.json()) as never };
}

/** Waits until `ok()` holds (a deadline, not a sleep). */
async function until(ok: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const chat = (content: string, extra: object = {}): string =>
  JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content }], ...extra });

describe('api_server on the wire', () => {
  it.skipIf(!HAVE_CURL)(
    'curl -N gets each event as it is written; its disconnect stops the turn',
    async () => {
      model.push({ text: 'first words, then silence ', chunkSize: 64, hang: true });
      const curl = spawn('curl', [
        '-sS',
        '-N',
        '-i',
        `${base}/chat/completions`,
        '-H',
        `Authorization: Bearer ${API_KEY}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        chat('talk then hang', { stream: true }),
      ]);
      let out = '';
      curl.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      // the model never finishes: what curl shows arrived while the turn still runs
      await until(() => out.includes('silence'), 10_000, 'the streamed text in curl').catch((e: Error) => {
        throw new Error(`${e.message}; curl got: ${out}`);
      });
      expect(out).toMatch(/^content-type: text\/event-stream/im);
      expect(out).toMatch(/^x-accel-buffering: no/im);
      expect(out).toContain('data: {"id":"chatcmpl-');
      expect(out).not.toContain('[DONE]');
      const hung = model.requests.at(-1)!;
      curl.kill('SIGINT');
      // the client left: the turn is stopped, so the model's stream is closed too
      await until(() => hung.clientClosedAt !== undefined, 10_000, 'the turn to be stopped');
      const next = await post('/chat/completions', chat('after curl'));
      expect(next.status).toBe(200);
    },
    30_000,
  );

  it('bad bodies: OpenAI-shaped 400s naming the cause, JSON answers', async () => {
    const malformed = await post('/chat/completions', '{"model": "hermes-agent", "messages": [');
    expect(malformed.status).toBe(400);
    expect(malformed.type).toContain('application/json');
    expect(malformed.body.error).toEqual({
      message: 'the body is not valid JSON',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_json',
    });
    expect((await post('/chat/completions', '')).body.error).toMatchObject({ code: 'invalid_json' });
    expect((await post('/chat/completions', '[1]')).body.error).toMatchObject({ code: 'invalid_json' });
    // a form post (what a page can send without a preflight) is not JSON
    const form = await post('/chat/completions', 'model=hermes-agent&messages=hi', {
      ...auth,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(400);
    // JSON sent with another content type is still read (curl -d sends form-urlencoded)
    model.push({ text: 'read anyway' });
    const lax = await post('/chat/completions', chat('plain text type'), {
      ...auth,
      'content-type': 'text/plain',
    });
    expect(lax.status).toBe(200);

    const onlySystem = await post(
      '/chat/completions',
      JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'system', content: 'be nice' }] }),
    );
    expect(onlySystem).toMatchObject({ status: 400, body: { error: { param: 'messages' } } });
    const badRole = await post(
      '/chat/completions',
      JSON.stringify({ messages: [{ role: 'wizard', content: 'hi' }] }),
    );
    expect(badRole.body.error).toMatchObject({ param: 'messages[0].role' });
    const noInput = await post('/responses', JSON.stringify({ model: 'hermes-agent' }));
    expect(noInput).toMatchObject({ status: 400, body: { error: { param: 'input' } } });
    const numberInput = await post('/responses', JSON.stringify({ input: 42 }));
    expect(numberInput).toMatchObject({ status: 400, body: { error: { param: 'input' } } });
    const both = await post(
      '/responses',
      JSON.stringify({ input: 'hi', conversation: 'c', previous_response_id: 'resp_x' }),
    );
    expect(both.status).toBe(400);
  });

  it('a huge body is refused with 413, declared or streamed in chunks, and the server goes on', async () => {
    const big = chat('x'.repeat(5 * 1024 * 1024));
    const declared = await post('/chat/completions', big);
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: 'request_too_large', type: 'invalid_request_error' });

    // no content-length: the server counts while reading
    const piece = new TextEncoder().encode('x'.repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === 0) c.enqueue(new TextEncoder().encode('{"messages":[{"role":"user","content":"'));
        if (sent++ < 24) c.enqueue(piece);
        else c.close();
      },
    });
    const r = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: json,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('request_too_large');

    model.push({ text: 'still serving' });
    expect((await post('/chat/completions', chat('small again'))).status).toBe(200);
  }, 30_000);

  it('the key: missing, malformed or wrong → 401 in OpenAI’s shape; routes unknown → 404', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer not-the-key-at-all' },
      { authorization: `Bearer ${API_KEY}x` },
    ]) {
      const r = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: chat('hi'),
      });
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({
        error: { type: 'authentication_error', code: 'invalid_api_key', message: expect.any(String) },
      });
    }
    // the scheme is case-insensitive, as HTTP says
    expect((await fetch(`${base}/models`, { headers: { authorization: `bearer ${API_KEY}` } })).status).toBe(
      200,
    );
    const unknown = await fetch(`${base}/embeddings`, { method: 'POST', headers: json, body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'not_found_error' } });
  });

  it('a dangerous command from an API turn is denied: it does not run, the client reads why', async () => {
    const dir = join(root, 'victims', 'api');
    mkdirSync(dir, { recursive: true });
    for (const stream of [false, true]) {
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
        { echo: 'last_tool_result', prefix: 'tool said: ' },
      );
      const r = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        headers: json,
        body: chat('clean up the victims folder', { stream }),
      });
      expect(r.status).toBe(200);
      const body = await r.text();
      type Chunk = { choices: Array<{ delta?: { content?: string } }> };
      const text = stream
        ? body
            .split('\n\n')
            .filter((b) => b.startsWith('data: {'))
            .map((b) => (JSON.parse(b.slice(6)) as Chunk).choices[0]?.delta?.content ?? '')
            .join('')
        : (JSON.parse(body) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message
            .content;
      // the command did not run
      expect(existsSync(dir)).toBe(true);
      // the client is told, in the answer, that approval was needed and refused
      expect(text).toContain(`rm -rf ${dir}`);
      expect(text).toMatch(/needs approval.*denied/);
      // the model got the refusal as the tool's result
      const toolResult = (
        model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>
      ).find((m) => m.role === 'tool');
      expect(toolResult?.content).toMatch(/denied|not approved|blocked/i);
    }

    // the Responses API shows the refused call and its result as items, under the model's call id
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }] },
      { text: 'It was blocked.' },
    );
    const r = await fetch(`${base}/responses`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ model: 'hermes-agent', input: 'clean up again' }),
    });
    const body = (await r.json()) as { output: Array<{ type: string; call_id?: string; output?: string }> };
    expect(existsSync(dir)).toBe(true);
    expect(body.output.map((o) => o.type)).toEqual(['function_call', 'function_call_output', 'message']);
    expect(body.output[1]!.output).toMatch(/^BLOCKED: /);
    const tool = (
      model.requests.at(-1)!.body.messages as Array<{ role: string; tool_call_id?: string }>
    ).find((m) => m.role === 'tool');
    expect(body.output[0]!.call_id).toBe(tool!.tool_call_id);
    expect(body.output[1]!.call_id).toBe(tool!.tool_call_id);
  }, 60_000);
});
