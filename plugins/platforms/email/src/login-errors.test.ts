import { describe, expect, it } from 'vitest';
import { loginError, loginRefused } from './login-errors.js';

/** An error shaped as imapflow or nodemailer throws it. */
const err = (message: string, fields: Record<string, unknown>): Error =>
  Object.assign(new Error(message), fields);

describe('loginRefused', () => {
  it('SMTP: a 5xx AUTH answer is a refusal, a 4xx one is not', () => {
    expect(
      loginRefused(err('Invalid login: 535 5.7.8 Error', { code: 'EAUTH', responseCode: 535 }), 'smtp'),
    ).toBe(true);
    expect(loginRefused(err('Invalid login: 534', { code: 'EAUTH', responseCode: 534 }), 'smtp')).toBe(true);
    expect(
      loginRefused(
        err('Invalid login: 454 4.7.0 Temporary authentication failure', {
          code: 'EAUTH',
          responseCode: 454,
        }),
        'smtp',
      ),
    ).toBe(false);
    expect(loginRefused(err('Missing credentials for "PLAIN"', { code: 'EAUTH' }), 'smtp')).toBe(true);
  });

  it('SMTP: a network error or a 5xx outside AUTH is not a refusal', () => {
    expect(loginRefused(err('connect ECONNREFUSED', { code: 'ESOCKET' }), 'smtp')).toBe(false);
    expect(loginRefused(err('Greeting never received', { code: 'ETIMEDOUT' }), 'smtp')).toBe(false);
    expect(loginRefused(err('554 no service', { code: 'EPROTOCOL', responseCode: 554 }), 'smtp')).toBe(false);
  });

  it('IMAP: AUTHENTICATIONFAILED or no code is a refusal; UNAVAILABLE, SERVERBUG, INUSE, LIMIT are not', () => {
    const no = (code?: string): Error =>
      err('Command failed', { authenticationFailed: true, ...(code ? { serverResponseCode: code } : {}) });
    expect(loginRefused(no('AUTHENTICATIONFAILED'), 'imap')).toBe(true);
    expect(loginRefused(no(), 'imap')).toBe(true);
    for (const code of ['UNAVAILABLE', 'SERVERBUG', 'INUSE', 'LIMIT', 'unavailable']) {
      expect(loginRefused(no(code), 'imap'), code).toBe(false);
    }
  });

  it('IMAP: a connection lost during LOGIN is not a refusal', () => {
    expect(loginRefused(err('Connection not available', { code: 'NoConnection' }), 'imap')).toBe(false);
  });
});

describe('loginError', () => {
  it('marks a refusal permanent and names the side; a temporary failure is neither', () => {
    const refused = loginError(err('Invalid login: 535', { code: 'EAUTH', responseCode: 535 }), 'smtp');
    expect(refused).toMatchObject({ message: 'smtp: Invalid login: 535 (login refused)', permanent: true });
    const later = loginError(
      err('Command failed', { authenticationFailed: true, serverResponseCode: 'UNAVAILABLE' }),
      'imap',
    );
    expect(later.message).toBe('imap: Command failed');
    expect((later as { permanent?: boolean }).permanent).toBeUndefined();
  });
});
