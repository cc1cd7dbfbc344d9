/**
 * The email adapter against the real mail servers (tests/support/mail-servers.ts: dovecot and
 * postfix on loopback) with a fake host: a mail reaching the host with its source, thread and
 * attachments; a reply and a file sent with threading headers; a mail the host could not take
 * fetched again; a refused login (permanent); a lost connection reported once. Skipped, with the
 * reason in the title, where the servers cannot run.
 */
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { ImapFlow } from 'imapflow';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import {
  describeMail,
  mailSkipReason,
  startMailServers,
  type MailServers,
} from '../../../../tests/support/mail-servers.js';
import { MailTestUser } from '../../../../tests/support/mail-test-client.js';
import type { EmailAdapter } from './adapter.js';
import { platform } from './index.js';
import { threadToken } from './thread.js';

const BOT = 'bot@hermes.test';
let mail: MailServers;
let alice: MailTestUser;
const adapters: EmailAdapter[] = [];

beforeAll(async () => {
  if (mailSkipReason) return;
  mail = await startMailServers(['bot', 'alice']);
  alice = new MailTestUser(mail, mail.user('alice'));
});

afterAll(async () => {
  for (const a of adapters) await a.disconnect();
  alice?.close();
  await mail?.stop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Counts the IMAP fetches of a mail's source (`BODY[]`, whole or in part) the adapters make from
 * now on: every ImapFlow fetch whose query asks for `source` or `bodyParts`.
 */
function countBodyFetches(): { count: () => number } {
  let n = 0;
  const wants = (q: unknown): boolean => {
    const query = q as { source?: unknown; bodyParts?: unknown } | undefined;
    return !!query && (query.source !== undefined || query.bodyParts !== undefined);
  };
  const proto = ImapFlow.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['fetch', 'fetchAll', 'fetchOne']) {
    const original = proto[name]!;
    vi.spyOn(proto, name).mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (wants(args[1])) n++;
      return original.apply(this, args);
    });
  }
  return { count: () => n };
}

async function start(
  password = 'bot-pw',
  extra: Record<string, unknown> = {},
): Promise<{ host: FakeHost; adapter: EmailAdapter }> {
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: {
      address: BOT,
      imap: { host: '127.0.0.1', port: mail.imapPort, tls: false },
      smtp: { host: '127.0.0.1', port: mail.smtpPort, tls: false },
      poll_interval: 5,
      ...extra,
    },
    secrets: { EMAIL_PASSWORD: password },
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as EmailAdapter);
  adapters.push(adapter);
  return { host, adapter };
}

describeMail('EmailAdapter against dovecot and postfix', () => {
  it('hands a mail to the host and sends a threaded reply and a file', async () => {
    const { host, adapter } = await start();
    await adapter.connect();
    expect(adapter.idle).toBe(true);
    const id = await alice.send({
      to: BOT,
      subject: 'Report',
      text: 'Here it is\n\n> old',
      attachments: [{ filename: 'r.pdf', content: Buffer.from('%PDF-1.4'), contentType: 'application/pdf' }],
    });
    const [m] = await host.waitFor(() => host.messages.length >= 1 && host.messages, 'a message', 10_000);
    expect(m!.source).toEqual({
      platform: 'email',
      chatType: 'dm',
      chatId: 'alice@hermes.test',
      userId: 'alice@hermes.test',
      threadId: threadToken(id),
      messageId: id,
      chatTopic: 'Report',
    });
    expect(m!.text).toBe('Here it is');
    expect(m!.dedupeKey).toBe(id);
    expect(m!.files?.map((f) => [f.name, f.kind])).toEqual([['r.pdf', 'document']]);

    const sent = await adapter.send('alice@hermes.test', 'Got it', {
      replyTo: id,
      threadId: m!.source.threadId!,
      deliveryId: 'in-1#0',
    });
    expect(sent.ok, sent.error).toBe(true);
    const file = await adapter.sendFile(
      'alice@hermes.test',
      { name: 'out.txt', data: Buffer.from('data'), mime: 'text/plain' },
      { replyTo: id },
    );
    expect(file.ok, file.error).toBe(true);
    const got = (await alice.waitFor((x) => x.filter((y) => y.from === BOT).length >= 2, 'two mails')).filter(
      (y) => y.from === BOT,
    );
    expect(got.map((g) => [g.subject, g.inReplyTo, g.references, g.header('auto-submitted')])).toEqual([
      ['Re: Report', id, [id], 'auto-replied'],
      ['Re: Report', id, [id], 'auto-replied'],
    ]);
    // postfix may deliver the two in either order
    const text = got.find((g) => g.attachments.length === 0)!;
    const withFile = got.find((g) => g.attachments.length > 0)!;
    expect(text.text.trim()).toBe('Got it');
    expect(withFile.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['out.txt', 'data'],
    ]);
    expect(text.messageId).toMatch(/^<hermes\.[0-9a-f]{24}@hermes\.test>$/);
    // the taken mail is flagged \Seen in the bot's mailbox
    const bot = new MailTestUser(mail, mail.user('bot'));
    const [mine] = (await bot.inbox()).filter((x) => x.messageId === id);
    bot.close();
    expect(mine!.flags).toContain('\\Seen');

    // a client that answers with In-Reply-To only stays in the thread
    await alice.send({ to: BOT, subject: 'Re: Report', text: 'thanks', inReplyTo: text.messageId });
    const [, next] = await host.waitFor(
      () => host.messages.length >= 2 && host.messages,
      'the answer',
      10_000,
    );
    expect(next!.source.threadId).toBe(threadToken(id));
    await adapter.disconnect();
  });

  it('a message the server refuses for good is not retryable; an unreachable server is', async () => {
    const { adapter } = await start();
    await adapter.connect();
    const big = await adapter.sendFile('alice@hermes.test', {
      name: 'big.bin',
      data: Buffer.alloc(3_000_000),
    });
    expect(big).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringMatching(/^smtp: .*5\d\d/),
    });
    await adapter.disconnect();
    const down = (await platform.createAdapter(
      testPlatformContext({
        config: {
          address: BOT,
          imap: { host: '127.0.0.1', port: mail.imapPort, tls: false },
          smtp: { host: '127.0.0.1', port: 1, tls: false },
        },
        secrets: { EMAIL_PASSWORD: 'bot-pw' },
      }),
    )) as EmailAdapter;
    const r = await down.send('alice@hermes.test', 'hello?');
    expect(r.ok).toBe(false);
    expect(r.retryable).toBeUndefined();
    await down.disconnect();
  });

  it('sends without the daemon (cron delivery): a new mail with the configured subject', async () => {
    const ctx = testPlatformContext({
      config: {
        address: BOT,
        imap: { host: '127.0.0.1', port: mail.imapPort, tls: false },
        smtp: { host: '127.0.0.1', port: mail.smtpPort, tls: false },
        subject: 'Nightly report',
      },
      secrets: { EMAIL_PASSWORD: 'bot-pw' },
    });
    const r = await platform.standaloneSender!(ctx, 'alice@hermes.test', 'all good');
    expect(r.ok, r.error).toBe(true);
    const [m] = (
      await alice.waitFor((x) => x.some((y) => y.subject === 'Nightly report'), 'the report')
    ).filter((y) => y.subject === 'Nightly report');
    expect([m!.from, m!.inReplyTo, m!.text.trim(), m!.header('auto-submitted')]).toEqual([
      BOT,
      '',
      'all good',
      'auto-replied',
    ]);
  });

  it('a mail over the size cap is cut: its text is taken, its attachments are named, not kept', async () => {
    // cap: 3 attachments of 100 kB base64-encoded + 1 MiB ≈ 1.45 MB
    const { host, adapter } = await start('bot-pw', { max_attachment_bytes: 100_000 });
    await adapter.connect();
    await alice.send({
      to: BOT,
      subject: 'Huge',
      text: 'see the big file',
      attachments: [{ filename: 'big.bin', content: Buffer.alloc(1_300_000, 7) }],
    });
    const [m] = await host.waitFor(() => host.messages.length >= 1 && host.messages, 'the mail', 10_000);
    expect(m!.text).toMatch(
      /^see the big file\n\n\(Attachments too large to take: all of them \(the mail is \d+ bytes, over the limit of \d+\)\)$/,
    );
    expect(m!.files).toBeUndefined();
    await adapter.disconnect();
  });

  it('fetches neither the body nor the attachments of a mail whose sender the host refuses', async () => {
    const { host, adapter } = await start();
    host.authorized = () => false;
    await adapter.connect();
    const bodies = countBodyFetches();
    await alice.send({
      to: BOT,
      subject: 'Invoice',
      text: 'open it',
      attachments: [{ filename: 'i.pdf', content: Buffer.alloc(600_000, 1), contentType: 'application/pdf' }],
    });
    const [m] = await host.waitFor(() => host.messages.length >= 1 && host.messages, 'the mail', 10_000);
    expect(m!.source.userId).toBe('alice@hermes.test');
    expect(m!.text).toBe('');
    expect(m!.files).toBeUndefined();
    expect(m!.images).toBeUndefined();
    expect(bodies.count()).toBe(0);
    // should the pipeline admit the sender after all, the body comes then
    const later = await m!.fetchAttachments!();
    expect(bodies.count()).toBe(1);
    expect(later.notes).toEqual(['open it']);
    expect(later.files?.map((f) => f.name)).toEqual(['i.pdf']);
    // a restart that cut the handover reads the mail again from its reference (UID, no content)
    const ref = JSON.parse(JSON.stringify(m!.attachmentsRef)) as Record<string, unknown>;
    expect(Object.keys(ref).sort()).toEqual(['fallbackId', 'size', 'uid', 'validity', 'withText']);
    const again = await adapter.refetchAttachments(ref);
    expect(again.notes).toEqual(['open it']);
    expect(again.files?.map((f) => [f.name, f.data.length])).toEqual([['i.pdf', 600_000]]);
    // under another UIDVALIDITY the UID names another mail: nothing is read
    expect(await adapter.refetchAttachments({ ...ref, validity: 'other' })).toEqual({
      notes: ['(The mail could not be read again: it is no longer in the mailbox.)'],
    });
    expect(await adapter.refetchAttachments({ uid: 'x' })).toEqual({
      notes: ['(The mail could not be read again: its record is damaged.)'],
    });
    await adapter.disconnect();
  });

  it('fetches no body of a mail from outside allowed_senders', async () => {
    const lines: string[] = [];
    const host = new FakeHost();
    const ctx = testPlatformContext({
      config: {
        address: BOT,
        imap: { host: '127.0.0.1', port: mail.imapPort, tls: false },
        smtp: { host: '127.0.0.1', port: mail.smtpPort, tls: false },
        poll_interval: 5,
        allowed_senders: ['@elsewhere.test'],
      },
      secrets: { EMAIL_PASSWORD: 'bot-pw' },
      log: (l) => lines.push(l),
    });
    const adapter = host.attach((await platform.createAdapter(ctx)) as EmailAdapter);
    adapters.push(adapter);
    await adapter.connect();
    const bodies = countBodyFetches();
    await alice.send({
      to: BOT,
      subject: 'Big',
      text: 'read me',
      attachments: [{ filename: 'big.bin', content: Buffer.alloc(1_000_000, 7) }],
    });
    const deadline = Date.now() + 10_000;
    while (!lines.some((l) => l.includes('not answered: sender not in allowed_senders'))) {
      if (Date.now() > deadline) throw new Error(`no skipped mail within 10 s: ${lines.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(bodies.count()).toBe(0);
    expect(host.messages).toHaveLength(0);
    await adapter.disconnect();
  });

  it('fetches a mail the host could not take again at the next check', async () => {
    const { host, adapter } = await start();
    host.receipt = (msg) => ({ kind: 'unavailable', id: 'x', reason: `busy ${msg.text}` });
    await adapter.connect();
    await alice.send({ to: BOT, subject: 'first', text: 'first' });
    await host.waitFor(() => host.messages.length >= 1, 'the first try', 10_000);
    host.receipt = () => ({ kind: 'accepted', id: 'y', durable: true });
    await alice.send({ to: BOT, subject: 'second', text: 'second' });
    await host.waitFor(() => host.messages.length >= 3, 'both mails', 15_000);
    expect(host.messages.map((m) => m.text)).toEqual(['first', 'first', 'second']);
    await adapter.disconnect();
  });

  it('reports a lost connection to the host, once', async () => {
    const { host, adapter } = await start();
    await adapter.connect();
    mail.kick(BOT);
    const [err] = await host.waitFor(() => host.fatal.length > 0 && host.fatal, 'a fatal error', 10_000);
    expect(err!.message).toBe('IMAP connection lost');
    await adapter.disconnect();
    expect(host.fatal).toHaveLength(1);
  });

  // last: dovecot delays further logins from an address after a refused one (anvil penalty)
  it('a refused login fails connect for good (permanent)', async () => {
    const { adapter } = await start('wrong');
    await expect(adapter.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/^smtp: .*login refused/),
      permanent: true,
    });
    // SMTP takes its password, IMAP refuses its own
    const host = new FakeHost();
    const imapOnly = host.attach(
      (await platform.createAdapter(
        testPlatformContext({
          config: {
            address: BOT,
            imap: { host: '127.0.0.1', port: mail.imapPort, tls: false },
            smtp: { host: '127.0.0.1', port: mail.smtpPort, tls: false },
          },
          secrets: { EMAIL_IMAP_PASSWORD: 'wrong', EMAIL_SMTP_PASSWORD: 'bot-pw' },
        }),
      )) as EmailAdapter,
    );
    adapters.push(imapOnly);
    await expect(imapOnly.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/^imap: .*login refused/),
      permanent: true,
    });
  });
});
