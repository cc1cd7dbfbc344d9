/**
 * The IMAP inbox against a real dovecot that does not announce IDLE (so it must be polled): new
 * mail found by polling, and the position kept across a restart (mail that came while closed is
 * taken, none twice). Skipped, with the reason in the title, where the servers cannot run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeMail,
  mailSkipReason,
  startMailServers,
  type MailServers,
} from '../../../../tests/support/mail-servers.js';
import { MailTestUser } from '../../../../tests/support/mail-test-client.js';
import { ImapInbox } from './imap-inbox.js';
import { parseInboundMail } from './inbound.js';
import type { EmailSettings } from './settings.js';
import { EmailState } from './state-store.js';

let mail: MailServers;
let alice: MailTestUser;
const stateFile = join(mkdtempSync(join(tmpdir(), 'email-inbox-')), 'state.json');

beforeAll(async () => {
  if (mailSkipReason) return;
  mail = await startMailServers(['bot', 'alice'], { idle: false });
  alice = new MailTestUser(mail, mail.user('alice'));
});

afterAll(async () => {
  alice?.close();
  await mail?.stop();
});

function settings(): EmailSettings {
  const server = {
    host: '127.0.0.1',
    tls: false,
    tlsVerify: true,
    user: 'bot@hermes.test',
    password: 'bot-pw',
  };
  return {
    address: 'bot@hermes.test',
    name: 'Hermes',
    imap: { ...server, port: mail.imapPort },
    smtp: { ...server, port: mail.smtpPort },
    mailbox: 'INBOX',
    pollIntervalMs: 500,
    allowedSenders: [],
    maxAttachmentBytes: 1024 * 1024,
    maxMailBytes: 8 * 1024 * 1024,
    subject: 'Message from Hermes',
  };
}

/** An inbox recording the text of each mail it is given. */
function inbox(got: string[]): ImapInbox {
  return new ImapInbox(settings(), new EmailState(stateFile), {
    onMail: async (m) => {
      got.push((await parseInboundMail(await m.source(), '<x@x>', 1024)).text);
      return 'taken';
    },
    onLost: () => undefined,
    log: () => undefined,
  });
}

async function until(probe: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeMail('ImapInbox on a server without IDLE', () => {
  it('finds new mail by polling, and resumes after a restart without skipping or repeating', async () => {
    const got: string[] = [];
    const first = inbox(got);
    await first.open();
    expect(first.idle).toBe(false);
    await alice.send({ to: 'bot@hermes.test', text: 'one' });
    await until(() => got.length >= 1, 'polled mail');
    await first.close();

    await alice.send({ to: 'bot@hermes.test', text: 'two' });
    await alice.send({ to: 'bot@hermes.test', text: 'three' });
    // both are in the mailbox before the inbox opens again
    await until(() => mail.logs().split('status=sent').length - 1 >= 3, 'delivery of both');
    const second = inbox(got);
    await second.open();
    // one fetch hands on everything above the saved UID: a repeat of "one" would come first
    await until(() => got.length >= 3, 'the mail that came while closed');
    await second.close();
    expect(got).toEqual(['one', 'two', 'three']);
  });
});
