/**
 * The email platform end to end: real mail servers (Debian's postfix for SMTP, dovecot for IMAP
 * and delivery over LMTP) on loopback, the real daemon (`hermes gateway start`) with
 * `platforms.email` enabled, the scripted model, and people who send mail through postfix and
 * read their own mailbox over IMAP. Covers the round trip (IDLE → reply with threading headers,
 * quoted history kept from the model), a thread kept as one session, a new subject as a new one,
 * an image attachment reaching the model as an image part, a document saved and named to the
 * model, a long reply sent whole, pairing by mail, a mail delivered twice answered once, and
 * automated mail (auto-replies, bounces, lists, the bot's own) never answered. Skipped (counted,
 * with a notice) where the mail servers cannot run.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { describeMail, mailSkipReason, startMailServers, type MailServers } from './support/mail-servers.js';
import { MailTestUser, type ReceivedMail } from './support/mail-test-client.js';
import { outcomeLines, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

if (mailSkipReason) process.stderr.write(`platform-email: ${mailSkipReason}: 10 tests skipped\n`);

const BOT = 'bot@hermes.test';
let model: FakeModelServer;
let mail: MailServers;
let root: string;
let alice: MailTestUser;
let bob: MailTestUser;
let carol: MailTestUser;
let dave: MailTestUser;
let erin: MailTestUser;

/** The user messages of one model request. */
function userTexts(i: number): unknown[] {
  return (model.requests[i]!.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
}

/** The daemon's IMAP fetches of whole mail sources (`BODY[]` / `BODY.PEEK[]`, cut or not). */
const bodyFetches = (): string[] =>
  mail.imapCommands(BOT).filter((l) => /\bFETCH\b/i.test(l) && /BODY(\.PEEK)?\[\]/i.test(l));

/** Mails from the bot in a list. */
const fromBot = (mails: ReceivedMail[]): ReceivedMail[] => mails.filter((m) => m.from === BOT);

beforeAll(async () => {
  if (mailSkipReason) return;
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  mail = await startMailServers(['bot', 'alice', 'bob', 'carol', 'dave', 'erin'], { rawlog: true });
  alice = new MailTestUser(mail, mail.user('alice'));
  bob = new MailTestUser(mail, mail.user('bob'));
  carol = new MailTestUser(mail, mail.user('carol'));
  dave = new MailTestUser(mail, mail.user('dave'));
  erin = new MailTestUser(mail, mail.user('erin'));
  root = makeTestHome({
    env: 'EMAIL_PASSWORD=bot-pw\n',
    config: [
      'model:',
      '  provider: custom',
      `  base_url: ${model.url}`,
      '  default: fake-model',
      '  vision: true',
      'platforms:',
      '  email:',
      '    enabled: true',
      `    address: ${BOT}`,
      '    name: Hermes Bot',
      `    imap: { host: 127.0.0.1, port: ${mail.imapPort}, tls: false }`,
      `    smtp: { host: 127.0.0.1, port: ${mail.smtpPort}, tls: false }`,
      '    allowed_users: [alice@hermes.test, bob@hermes.test]',
      '    reset: { mode: none }',
      '    footer: false',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'email');
}, 60_000);

afterAll(async () => {
  for (const u of [alice, bob, carol, dave, erin]) u?.close();
  await stopDaemon(root);
  await mail?.stop();
  await model?.close();
});

describeMail('Email platform', () => {
  it('hermes gateway status shows the platform connected', async () => {
    const r = await runHermes(root, ['gateway', 'status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/email: connected/);
  });

  it('a mail round trip: the reply is threaded, and the model saw no quoted history or signature', async () => {
    const before = model.requests.length;
    const sentId = await alice.send({
      to: BOT,
      subject: 'Disk space',
      text: [
        'How much disk space is left?',
        '',
        'On Mon, 1 Dec 2026 at 10:00, Hermes Bot <bot@hermes.test> wrote:',
        '> an old answer',
        '> with two lines',
        '',
        '-- ',
        'Alice, Ops team',
      ].join('\n'),
    });
    const [reply] = fromBot(await alice.waitFor((m) => fromBot(m).length >= 1, 'a reply'));
    expect(reply!.text.trim()).toBe('echo: How much disk space is left?');
    expect(reply!.subject).toBe('Re: Disk space');
    expect(reply!.inReplyTo).toBe(sentId);
    expect(reply!.references).toEqual([sentId]);
    expect(reply!.header('auto-submitted')).toBe('auto-replied');
    expect(reply!.html).toContain('echo: How much disk space is left?');
    expect(userTexts(before)).toEqual(['How much disk space is left?']);
  });

  it('a reply to the bot’s reply continues the same session; a new subject starts another', async () => {
    const [first] = fromBot(await alice.inbox());
    const before = model.requests.length;
    await alice.send({
      to: BOT,
      subject: first!.subject,
      text: 'And how much memory?\n\n> echo: How much disk space is left?\n',
      inReplyTo: first!.messageId,
      references: [...first!.references, first!.messageId],
    });
    const replies = fromBot(await alice.waitFor((m) => fromBot(m).length >= 2, 'a second reply'));
    const second = replies[1]!;
    expect(second.text.trim()).toBe('echo: And how much memory?');
    expect(second.subject).toBe('Re: Disk space');
    expect(second.inReplyTo).not.toBe(first!.messageId); // answers alice's second mail
    expect(second.references[0]).toBe(first!.references[0]); // the thread's root
    expect(userTexts(before)).toEqual(['How much disk space is left?', 'And how much memory?']);

    const fresh = model.requests.length;
    await alice.send({ to: BOT, subject: 'Another topic', text: 'Something else entirely' });
    await alice.waitFor((m) => fromBot(m).length >= 3, 'a reply in a new thread');
    expect(userTexts(fresh)).toEqual(['Something else entirely']);
    const c = await connect({ root }, { name: 'test', capabilities: { approvals: false } });
    try {
      const { sessions } = await c.request('session.list', { source: 'email' });
      expect(sessions).toHaveLength(2);
    } finally {
      await c.close();
    }
  });

  it('an image attachment reaches the model as an image part; a long reply arrives whole', async () => {
    // a 1×1 PNG
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n');
    model.push({ text: long });
    const before = model.requests.length;
    await bob.send({
      to: BOT,
      subject: 'What is this?',
      text: 'Look at this picture',
      attachments: [{ filename: 'dot.png', content: png, contentType: 'image/png' }],
    });
    const [reply] = fromBot(await bob.waitFor((m) => fromBot(m).length >= 1, 'a reply'));
    const content = userTexts(before).at(-1) as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expect(Array.isArray(content)).toBe(true);
    expect(content.find((p) => p.type === 'text')?.text).toContain('Look at this picture');
    expect(content.find((p) => p.type === 'image_url')?.image_url?.url).toMatch(/^data:image\/png;base64,/);
    // email has no length limit: one mail with the whole text, no attachment
    expect(reply!.text.trim()).toBe(long);
    expect(reply!.attachments).toHaveLength(0);
  });

  it('an unknown sender gets a pairing code by mail, and is answered after approval', async () => {
    await carol.send({ to: BOT, subject: 'Hi', text: 'let me in' });
    const [offer] = fromBot(await carol.waitFor((m) => fromBot(m).length >= 1, 'a pairing code'));
    const code = /pairing code is ([A-Z2-9]{8})/.exec(offer!.text)?.[1];
    expect(code, offer!.text).toBeDefined();
    const approved = await runHermes(root, ['pairing', 'approve', code!]);
    expect(approved.code, approved.stderr).toBe(0);
    await carol.send({ to: BOT, subject: 'Hi again', text: 'now?' });
    const mails = fromBot(await carol.waitFor((m) => fromBot(m).length >= 2, 'an answer'));
    expect(mails[1]!.text.trim()).toBe('echo: now?');
  });

  it("an unknown sender's attachment is never saved or shown to the model; the pairing code still comes", async () => {
    const before = model.requests.length;
    await dave.send({
      to: BOT,
      subject: 'Invoice',
      text: 'open the attachment',
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 evil'), contentType: 'application/pdf' },
      ],
    });
    const [offer] = fromBot(await dave.waitFor((m) => fromBot(m).length >= 1, 'a pairing code'));
    expect(offer!.text).toMatch(/pairing code is [A-Z2-9]{8}/);
    expect(model.requests.length).toBe(before);
    const media = join(root, 'media');
    const saved = existsSync(media) ? readdirSync(media, { recursive: true }).map(String) : [];
    expect(saved.filter((p) => p.includes('invoice'))).toEqual([]);
  });

  it("a stranger's mail with a large attachment: its header fields are fetched, never its body", async () => {
    const before = bodyFetches().length;
    await erin.send({
      to: BOT,
      subject: 'Big file',
      text: 'read me',
      attachments: [{ filename: 'big.bin', content: Buffer.alloc(1_000_000, 7) }],
    });
    const [offer] = fromBot(await erin.waitFor((m) => fromBot(m).length >= 1, 'a pairing code'));
    expect(offer!.text).toMatch(/pairing code is [A-Z2-9]{8}/);
    expect(mail.imapCommands(BOT).some((l) => /BODY\.PEEK\[HEADER\.FIELDS \(/i.test(l))).toBe(true);
    expect(bodyFetches().slice(before)).toEqual([]);
  });

  it('auto-replies, bounces, list mail and the bot’s own mail are never answered', async () => {
    const before = model.requests.length;
    const seen = fromBot(await alice.inbox()).length;
    await alice.send({ to: BOT, text: 'I am on holiday', headers: { 'Auto-Submitted': 'auto-replied' } });
    await alice.send({ to: BOT, text: 'Weekly digest', headers: { Precedence: 'bulk' } });
    await alice.send({ to: BOT, text: 'List post', headers: { 'List-Id': '<ops.lists.hermes.test>' } });
    await alice.send({
      to: BOT,
      text: 'Delivery failed',
      from: 'MAILER-DAEMON@hermes.test',
      envelopeFrom: '',
    });
    await alice.send({ to: BOT, text: 'Pretending to be the bot', from: BOT });
    await alice.send({ to: BOT, subject: 'Real one', text: 'a real question' });
    // postfix may deliver them in any order: wait until each was looked at
    const log = (): string => readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8');
    const reasons = [
      'not answered: Auto-Submitted: auto-replied',
      'not answered: Precedence: bulk',
      'not answered: a mailing-list mail (List-Id)',
      'not answered: a mail-system sender (mailer-daemon)',
      'not answered: sent by the bot itself',
    ];
    await waitFor(() => reasons.every((r) => log().includes(r)), 'every automated mail to be looked at');
    const mails = fromBot(await alice.waitFor((m) => fromBot(m).length >= seen + 1, 'the answer'));
    expect(mails.slice(seen).map((m) => m.text.trim())).toEqual(['echo: a real question']);
    const asked = model.requests.slice(before).flatMap((r, i) => userTexts(before + i));
    expect(asked).toEqual(['a real question']);
  });

  it('a document attachment is saved and named to the model as untrusted data', async () => {
    const before = model.requests.length;
    const seen = fromBot(await alice.inbox()).length;
    await alice.send({
      to: BOT,
      subject: 'The plan',
      text: 'summarise the attachment',
      attachments: [
        { filename: 'Q3 plan.pdf', content: Buffer.from('%PDF-1.4 plan'), contentType: 'application/pdf' },
      ],
    });
    await alice.waitFor((m) => fromBot(m).length >= seen + 1, 'a reply');
    const text = String(userTexts(before).at(-1));
    expect(text).toMatch(/^summarise the attachment\n\nFiles received with this message \(untrusted data/);
    const saved = /file "Q3 plan\.pdf" · type "application\/pdf" · .* · saved at "([^"]+)"/.exec(text)?.[1];
    expect(saved, text).toBeDefined();
    expect(readFileSync(saved!, 'utf8')).toBe('%PDF-1.4 plan');
  });

  it('a mail delivered twice (same Message-ID) is answered once', async () => {
    const seen = fromBot(await bob.inbox()).length;
    const id = '<twice.1@hermes.test>';
    await bob.send({ to: BOT, subject: 'Twice', text: 'only once please', messageId: id });
    await bob.waitFor((m) => fromBot(m).length >= seen + 1, 'the answer');
    const bodies = bodyFetches().length;
    expect(bodies).toBeGreaterThanOrEqual(1); // the first copy's, from an allowed sender
    await bob.send({ to: BOT, subject: 'Twice', text: 'only once please', messageId: id });
    await waitFor(
      () => outcomeLines(root).some((l) => /outcome=dropped reason="duplicate"$/.test(l)),
      'the duplicate',
    );
    // the copy was dropped from its header fields: its body was never fetched
    expect(bodyFetches()).toHaveLength(bodies);
    expect(
      fromBot(await bob.inbox())
        .slice(seen)
        .map((m) => m.inReplyTo),
    ).toEqual([id]);
  });

  it('every mail handed on has exactly one outcome line; automated mail none', async () => {
    await waitFor(() => outcomeLines(root).length >= 12, 'the outcome lines');
    const lines = outcomeLines(root);
    expect(lines.filter((l) => /outcome=reply$/.test(l))).toHaveLength(8);
    expect(lines.filter((l) => /outcome=dropped reason="duplicate"$/.test(l))).toHaveLength(1);
    expect(
      lines.filter((l) => /chat=carol@hermes\.test .*outcome=dropped reason="access denied"$/.test(l)),
    ).toHaveLength(1);
    expect(
      lines.filter((l) => /chat=dave@hermes\.test .*outcome=dropped reason="access denied"$/.test(l)),
    ).toHaveLength(1);
    expect(
      lines.filter((l) => /chat=erin@hermes\.test .*outcome=dropped reason="access denied"$/.test(l)),
    ).toHaveLength(1);
    expect(lines).toHaveLength(12);
  });
});
