/**
 * Email under load and outages, end to end (real postfix + dovecot, the real daemon, the scripted
 * model echoing each prompt): 20 mails within a second from 4 senders all answered exactly once,
 * each reply threaded under its own mail; the bot's IMAP connection kicked by the server while a
 * turn runs, and a mail sent during the drop — each answered once; dovecot stopped (status leaves
 * `connected`), mail sent meanwhile (postfix queues it), dovecot started again — answered once,
 * nothing answered twice; postfix stopped while a reply is due — the delivery ledger retries it
 * and it arrives once postfix is back. Skipped (counted, with a notice) where the mail servers cannot run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { describeMail, mailSkipReason, startMailServers, type MailServers } from './support/mail-servers.js';
import { MailTestUser, type ReceivedMail } from './support/mail-test-client.js';
import {
  gatewayStatus,
  openDeliveries,
  outcomeLines,
  startDaemonWithPlatform,
  stopDaemon,
} from './support/platform-daemon.js';

if (mailSkipReason) process.stderr.write(`platform-email-resilience: ${mailSkipReason}: 4 tests skipped\n`);

const BOT = 'bot@hermes.test';
const SENDERS = ['u1', 'u2', 'u3', 'u4'];
const PER_SENDER = 5;
let model: FakeModelServer;
let mail: MailServers;
let root: string;
const users = new Map<string, MailTestUser>();
const fromBot = (mails: ReceivedMail[]): ReceivedMail[] => mails.filter((m) => m.from === BOT);

/** The email entry of `gateway.status`. */
async function emailStatus(): Promise<{ state: string; last_error?: string } | undefined> {
  return (await gatewayStatus(root)).platforms?.find((p) => p.platform === 'email');
}

beforeAll(async () => {
  if (mailSkipReason) return;
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  mail = await startMailServers(['bot', ...SENDERS]);
  for (const u of SENDERS) users.set(u, new MailTestUser(mail, mail.user(u)));
  root = makeTestHome({
    modelUrl: model.url,
    env: 'EMAIL_PASSWORD=bot-pw\n',
    config: [
      'platforms:',
      '  email:',
      '    enabled: true',
      `    address: ${BOT}`,
      `    imap: { host: 127.0.0.1, port: ${mail.imapPort}, tls: false }`,
      `    smtp: { host: 127.0.0.1, port: ${mail.smtpPort}, tls: false }`,
      `    allowed_users: [${SENDERS.map((u) => `${u}@hermes.test`).join(', ')}]`,
      '    reset: { mode: none }',
      '    footer: false',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'email');
}, 60_000);

afterAll(async () => {
  for (const u of users.values()) u.close();
  await stopDaemon(root);
  await mail?.stop();
  await model?.close();
});

describeMail('Email under load and outages', () => {
  it('20 mails within a second from 4 senders: each answered exactly once, under its own mail', async () => {
    const started = Date.now();
    const sent = await Promise.all(
      SENDERS.flatMap((u) =>
        Array.from({ length: PER_SENDER }, async (_, i) => {
          const text = `${u} question ${i + 1}`;
          const id = await users.get(u)!.send({ to: BOT, subject: `Burst ${u} ${i + 1}`, text });
          return { u, text, id };
        }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    await waitFor(() => outcomeLines(root).length >= 20, 'twenty outcome lines', 60_000);
    await waitFor(() => openDeliveries(root, 'email') === 0, 'the ledger to settle');
    for (const u of SENDERS) {
      const replies = fromBot(
        await users.get(u)!.waitFor((m) => fromBot(m).length >= PER_SENDER, `${PER_SENDER} replies`),
      );
      expect(replies).toHaveLength(PER_SENDER);
      for (const s of sent.filter((x) => x.u === u)) {
        const r = replies.filter((m) => m.inReplyTo === s.id);
        expect(r.map((m) => m.text.trim())).toEqual([`echo: ${s.text}`]);
      }
    }
    expect(outcomeLines(root).filter((l) => /outcome=reply$/.test(l))).toHaveLength(20);
  });

  it('a dropped IMAP connection during a turn: reconnected, nothing lost or doubled', async () => {
    const u1 = users.get('u1')!;
    const before = fromBot(await u1.inbox()).length;
    const reqs = model.requests.length;
    model.push({ text: 'a slow answer that streams for a while', chunkSize: 2, delayMs: 60 });
    await u1.send({ to: BOT, subject: 'Slow', text: 'take your time' });
    await model.waitForRequests(reqs + 1, 15_000);
    mail.kick(BOT); // the server closes the bot's IMAP connection mid-turn
    await u1.send({ to: BOT, subject: 'During the drop', text: 'sent while reconnecting' });
    const mails = fromBot(await u1.waitFor((m) => fromBot(m).length >= before + 2, 'both replies', 30_000));
    expect(
      mails
        .slice(before)
        .map((m) => m.text.trim())
        .sort(),
    ).toEqual(['a slow answer that streams for a while', 'echo: sent while reconnecting'].sort());
    await waitFor(async () => (await emailStatus())?.state === 'connected', 'email to be connected again');
    await waitFor(() => openDeliveries(root, 'email') === 0, 'the ledger to settle');
    expect(fromBot(await u1.inbox())).toHaveLength(before + 2);
  });

  it('dovecot restarted: the status says so, mail sent meanwhile is answered once after', async () => {
    const u2 = users.get('u2')!;
    const before = fromBot(await u2.inbox()).length;
    await mail.stopDovecot();
    const down = await waitFor(async () => {
      const s = await emailStatus();
      return s && s.state !== 'connected' ? s : undefined;
    }, 'the status to leave connected');
    expect(['backing_off', 'connecting']).toContain(down.state);
    // postfix keeps it queued while LMTP is down (taken like inbound mail from another server:
    // its login service, dovecot's, is down too)
    await u2.send({ to: BOT, subject: 'While down', text: 'are you there?', asInbound: true });
    await mail.startDovecot();
    await waitFor(async () => (await emailStatus())?.state === 'connected', 'email to reconnect', 75_000);
    const mails = fromBot(await u2.waitFor((m) => fromBot(m).length >= before + 1, 'the reply', 60_000));
    expect(mails.slice(before).map((m) => m.text.trim())).toEqual(['echo: are you there?']);
    await waitFor(() => openDeliveries(root, 'email') === 0, 'the ledger to settle');
    // nothing older was answered again after the reconnects
    for (const u of SENDERS) {
      const replies = fromBot(await users.get(u)!.inbox());
      expect(new Set(replies.map((m) => m.inReplyTo)).size).toBe(replies.length);
    }
  });

  it('an SMTP outage: the reply is retried by the delivery ledger and arrives once', async () => {
    const u3 = users.get('u3')!;
    const before = fromBot(await u3.inbox()).length;
    const reqs = model.requests.length;
    model.push({ text: 'the answer after the outage', chunkSize: 4, delayMs: 80 });
    await u3.send({ to: BOT, subject: 'Outage', text: 'hello' });
    await model.waitForRequests(reqs + 1, 15_000);
    await mail.stopPostfix();
    const log = (): string => readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8');
    await waitFor(
      () => /reply in-[0-9a-f]{12} to u3@hermes\.test failed \(attempt 1: smtp: /.test(log()),
      'a failed attempt',
      15_000,
    );
    await mail.startPostfix();
    const mails = fromBot(await u3.waitFor((m) => fromBot(m).length >= before + 1, 'the reply', 30_000));
    expect(mails.slice(before).map((m) => m.text.trim())).toEqual(['the answer after the outage']);
    await waitFor(() => openDeliveries(root, 'email') === 0, 'the ledger to settle', 15_000);
    expect(fromBot(await u3.inbox())).toHaveLength(before + 1);
  });
});
