import { testPlatformContext } from '@hermes/core/testing';
import { describe, expect, it } from 'vitest';
import { platform } from './index.js';
import { senderAllowed } from './settings.js';

const base = {
  address: 'Bot@Example.com',
  imap: { host: 'imap.example.com' },
  smtp: { host: 'smtp.example.com' },
};

describe('platforms.email settings', () => {
  const check = (
    config: Record<string, unknown>,
    secrets: Record<string, string> = { EMAIL_PASSWORD: 'pw' },
  ) =>
    platform.validateConfig!(testPlatformContext({ config, secrets })) === true
      ? platform.checkRequirements!(testPlatformContext({ config, secrets }))
      : platform.validateConfig!(testPlatformContext({ config, secrets }));

  it('name the key and the problem', () => {
    expect(check({ ...base, address: undefined })).toBe('platforms.email.address is not set');
    expect(check({ ...base, address: 'not an address' })).toBe(
      'platforms.email.address: "not an address" is not a mail address',
    );
    expect(check({ ...base, imap: {} })).toBe('platforms.email.imap.host is not set');
    expect(check({ ...base, smtp: { host: 'x', port: 'x' } })).toBe(
      'platforms.email.smtp.port: expected a number',
    );
    expect(check({ ...base, poll_interval: 1 })).toBe('platforms.email.poll_interval: must be at least 5');
    expect(check({ ...base, allowed_senders: ['ok@x.com', 'nope'] })).toBe(
      'platforms.email.allowed_senders[1]: expected an address (user@example.com) or a domain (@example.com)',
    );
  });

  it('need a password', () => {
    expect(check(base, {})).toBe(
      'EMAIL_PASSWORD: not set in the profile .env (or set both EMAIL_IMAP_PASSWORD and EMAIL_SMTP_PASSWORD)',
    );
    expect(check(base, { EMAIL_IMAP_PASSWORD: 'a', EMAIL_SMTP_PASSWORD: 'b' })).toBe(true);
    expect(check(base)).toBe(true);
  });

  it('fill the defaults (ports by tls, login = address)', () => {
    const r = platform.parse(testPlatformContext({ config: base, secrets: { EMAIL_PASSWORD: 'pw' } }));
    if (!r.ok) throw new Error(r.error);
    expect(r.setup.settings).toMatchObject({
      name: 'Hermes',
      mailbox: 'INBOX',
      poll_interval: 60,
      allowed_senders: [],
      imap: { port: 993, tls: true },
      smtp: { port: 465, tls: true },
    });
    const plain = platform.parse(
      testPlatformContext({
        config: { ...base, imap: { host: 'i', tls: false }, smtp: { host: 's', tls: false } },
        secrets: { EMAIL_PASSWORD: 'pw' },
      }),
    );
    if (!plain.ok) throw new Error(plain.error);
    expect([plain.setup.settings.imap.port, plain.setup.settings.smtp.port]).toEqual([143, 587]);
  });

  it('senderAllowed matches addresses and @domains, case-blind', () => {
    expect(senderAllowed('a@x.com', [])).toBe(true);
    expect(senderAllowed('A@X.com', ['a@x.com'])).toBe(true);
    expect(senderAllowed('b@x.com', ['@x.com'])).toBe(true);
    expect(senderAllowed('b@evilx.com', ['@x.com'])).toBe(false);
    expect(senderAllowed('b@y.com', ['a@x.com', '@x.com'])).toBe(false);
  });
});
