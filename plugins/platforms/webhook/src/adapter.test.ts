/**
 * The webhook adapter over real HTTP: a signed inbound POST reaches the host, the reply is a
 * signed POST to a local receiver, and an unsigned or wrongly signed request is refused.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookAdapter } from './adapter.js';
import { DELIVERY_HEADER, platform } from './index.js';
import { SignatureVerifier, signedHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature.js';

const SECRET = 'a-shared-secret-of-32-characters';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

interface Received {
  headers: IncomingMessage['headers'];
  raw: Buffer;
  body: Record<string, unknown>;
}

/** The other side's receiver of replies. */
async function startReceiver(): Promise<{ url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const raw = Buffer.concat(parts);
    got.push({
      headers: req.headers,
      raw,
      body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>,
    });
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/replies`, got };
}

async function start(): Promise<{ host: FakeHost; adapter: WebhookAdapter; url: string; got: Received[] }> {
  const receiver = await startReceiver();
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { port: 0, path: '/hook', outbound_url: receiver.url },
    secrets: { WEBHOOK_SECRET: SECRET },
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as WebhookAdapter);
  await adapter.connect();
  cleanup.push(() => adapter.disconnect());
  return { host, adapter, url: `http://127.0.0.1:${adapter.port}/hook`, got: receiver.got };
}

function post(url: string, body: object, secret = SECRET): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders(secret, raw) },
    body: raw,
  });
}

describe('WebhookAdapter over HTTP', () => {
  it('accepts a signed message, hands it to the host, and POSTs the signed reply', async () => {
    const { host, adapter, url, got } = await start();
    const res = await post(url, { text: 'deploy done?', conversation: 'ci', user: 'bot-7', id: 'msg-1' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, id: 'msg-1', conversation: 'ci' });
    const m = await host.message(0);
    expect(m).toMatchObject({
      source: { platform: 'webhook', chatType: 'dm', chatId: 'ci', userId: 'bot-7', messageId: 'msg-1' },
      text: 'deploy done?',
      dedupeKey: 'msg-1',
    });

    const sent = await adapter.send('ci', 'yes, green', {
      kind: 'reply',
      replyTo: 'msg-1',
      deliveryId: 'msg-1#0',
    });
    expect(sent).toEqual({ ok: true });
    expect(got).toHaveLength(1);
    expect(got[0]!.body).toEqual({
      conversation: 'ci',
      text: 'yes, green',
      kind: 'reply',
      in_reply_to: 'msg-1',
      id: 'msg-1#0',
      nonce: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(got[0]!.headers[DELIVERY_HEADER]).toBe('msg-1#0');
    const h = (n: string): string | undefined => got[0]!.headers[n] as string | undefined;
    expect(new SignatureVerifier(SECRET).verify(h(TIMESTAMP_HEADER), h(SIGNATURE_HEADER), got[0]!.raw)).toBe(
      true,
    );
  });

  it('a reply sent again within the same second passes a receiver that refuses replays', async () => {
    const { adapter, got } = await start();
    const verifier = new SignatureVerifier(SECRET);
    const opts = { kind: 'reply' as const, replyTo: 'msg-2', deliveryId: 'msg-2#0' };
    // the same reply, twice at once: a retry after a lost answer, or after a restart
    expect(await adapter.send('ci', 'done', opts)).toEqual({ ok: true });
    expect(await adapter.send('ci', 'done', opts)).toEqual({ ok: true });
    expect(got).toHaveLength(2);
    const verdicts = got.map((g) =>
      verifier.verify(g.headers[TIMESTAMP_HEADER] as string, g.headers[SIGNATURE_HEADER] as string, g.raw),
    );
    expect(verdicts).toEqual([true, true]);
    // the receiver still recognises the repeat by its delivery id
    expect(got.map((g) => g.headers[DELIVERY_HEADER])).toEqual(['msg-2#0', 'msg-2#0']);
  });

  it('refuses a request signed with another secret or not signed, and tells the host nothing', async () => {
    const { host, url } = await start();
    const wrong = await post(url, { text: 'let me in' }, 'some-other-secret-value');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ ok: false, error: 'signature bad signature' });
    const unsigned = await fetch(url, { method: 'POST', body: JSON.stringify({ text: 'hi' }) });
    expect(unsigned.status).toBe(401);
    expect(host.messages).toEqual([]);
  });

  it('answers after the decision: 202 for a duplicate, 403 when refused, 503 with Retry-After when not taken', async () => {
    const { host, url } = await start();
    host.receipt = () => ({ kind: 'duplicate', id: 'row-1' });
    const dup = await post(url, { text: 'again', conversation: 'ci', id: 'msg-9' });
    expect(dup.status).toBe(202);
    expect(await dup.json()).toEqual({ ok: true, id: 'msg-9', conversation: 'ci', duplicate: true });
    host.receipt = () => ({ kind: 'refused', id: 'row-2', reason: 'access denied' });
    const refused = await post(url, { text: 'let me in', conversation: 'ci', id: 'msg-10' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, id: 'msg-10', error: 'refused: access denied' });
    host.receipt = () => ({ kind: 'unavailable', id: 'row-3', reason: 'the daemon is shutting down' });
    const later = await post(url, { text: 'hello?', conversation: 'ci', id: 'msg-11' });
    expect(later.status).toBe(503);
    expect(later.headers.get('retry-after')).toBe('5');
    expect(((await later.json()) as { error: string }).error).toContain('the daemon is shutting down');
  });

  it('answers 503 when the host finishes without deciding, instead of confirming a message it may lose', async () => {
    const adapter = (await platform.createAdapter(
      testPlatformContext({ config: { port: 0, path: '/hook' }, secrets: { WEBHOOK_SECRET: SECRET } }),
    )) as WebhookAdapter;
    adapter.setHandlers({ onMessage: () => undefined });
    await adapter.connect();
    try {
      const r = await post(`http://127.0.0.1:${adapter.port}/hook`, { text: 'hi', id: 'msg-12' });
      expect(r.status).toBe(503);
    } finally {
      await adapter.disconnect();
    }
  });

  it('a reply whose receiver is unreachable is reported as failed, to be retried', async () => {
    const host = new FakeHost();
    const ctx = testPlatformContext({
      config: { port: 0, outbound_url: 'http://127.0.0.1:9/nowhere' },
      secrets: { WEBHOOK_SECRET: SECRET },
    });
    const adapter = host.attach((await platform.createAdapter(ctx)) as WebhookAdapter);
    const r = await adapter.send('ci', 'hello');
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/outbound POST failed/);
    expect(r.retryable).not.toBe(false);
  });
});

describe('platforms.webhook settings', () => {
  it('name the key or the .env variable', () => {
    expect(platform.checkRequirements!(testPlatformContext({}))).toBe(
      'WEBHOOK_SECRET is not set in the profile .env',
    );
    expect(platform.checkRequirements!(testPlatformContext({ secrets: { WEBHOOK_SECRET: 'short' } }))).toBe(
      'WEBHOOK_SECRET: must be at least 16 characters',
    );
    const check = (config: Record<string, unknown>): unknown =>
      platform.validateConfig!(testPlatformContext({ config, secrets: { WEBHOOK_SECRET: SECRET } }));
    expect(check({ port: 'x' })).toBe('platforms.webhook.port: expected a number');
    expect(check({ path: 'hook' })).toBe('platforms.webhook.path: must start with /');
    expect(check({ outbound_url: 'mailto:x' })).toBe(
      'platforms.webhook.outbound_url: expected an http(s) URL',
    );
    expect(check({})).toBe(true);
  });
});
