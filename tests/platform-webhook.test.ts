/**
 * The webhook platform end to end: the real daemon receives signed POSTs (HMAC-SHA256
 * with the shared secret) and POSTs signed replies to a receiver; unsigned, tampered, stale and
 * replayed requests are refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sign,
  signedHeaders,
  SignatureVerifier,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from '@hermes/platform-webhook';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { freePort } from './support/ngircd.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

const SECRET = 'webhook-secret-0123456789';
let model: FakeModelServer;
let root: string;
let inbound: string;
let receiver: Server;
const received: Array<{
  body: { conversation: string; text: string; kind: string };
  verified: true | string;
}> = [];

function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(inbound, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'hook: ' } });
  const verifier = new SignatureVerifier(SECRET);
  receiver = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const raw = Buffer.concat(parts);
    const verified = verifier.verify(
      req.headers[TIMESTAMP_HEADER] as string | undefined,
      req.headers[SIGNATURE_HEADER] as string | undefined,
      raw,
    );
    received.push({ body: JSON.parse(raw.toString('utf8')), verified });
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = await freePort();
  inbound = `http://127.0.0.1:${port}/hooks/in`;
  root = makeTestHome({
    modelUrl: model.url,
    env: `WEBHOOK_SECRET=${SECRET}\n`,
    config: [
      'platforms:',
      '  webhook:',
      '    enabled: true',
      `    port: ${port}`,
      '    path: /hooks/in',
      `    outbound_url: http://127.0.0.1:${(receiver.address() as AddressInfo).port}/replies`,
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'webhook');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await model?.close();
});

describe('webhook platform', () => {
  it('a signed POST is accepted and the reply arrives as a signed POST', async () => {
    const body = JSON.stringify({ text: 'build finished', conversation: 'ci', user: 'ci-bot' });
    const r = await post(body, signedHeaders(SECRET, body));
    expect(r.status).toBe(202);
    expect(await r.json()).toMatchObject({ ok: true, conversation: 'ci' });
    const got = await waitFor(() => received.find((x) => x.body.kind === 'reply'), 'the reply POST');
    expect(got).toEqual({
      body: expect.objectContaining({ conversation: 'ci', text: 'hook: build finished', kind: 'reply' }),
      verified: true,
    });
  });

  it('refuses unsigned, tampered, stale and replayed requests', async () => {
    const body = JSON.stringify({ text: 'do something', conversation: 'x' });
    const now = Math.floor(Date.now() / 1000);
    expect((await post(body, {})).status).toBe(401);
    const headers = signedHeaders(SECRET, body);
    expect((await post(body.replace('something', 'else!!!!'), headers)).status).toBe(401);
    const old = now - 3600;
    expect(
      (await post(body, { [TIMESTAMP_HEADER]: String(old), [SIGNATURE_HEADER]: sign(SECRET, old, body) }))
        .status,
    ).toBe(401);
    expect((await post(body, headers)).status).toBe(202);
    expect((await post(body, headers)).status).toBe(401); // replay
    const notJson = 'text=hi';
    expect((await post(notJson, signedHeaders(SECRET, notJson))).status).toBe(400);
  });
});
