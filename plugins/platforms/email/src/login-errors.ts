/**
 * Which failed logins are for good. A server that refuses the credentials (IMAP `NO` with
 * `[AUTHENTICATIONFAILED]` or no code, SMTP 5xx such as 535) will refuse them again until the
 * password is fixed: the connect fails for good (`permanent`). A server that cannot check them
 * right now (IMAP `[UNAVAILABLE]`, `[SERVERBUG]`, `[INUSE]`, `[LIMIT]` — RFC 5530; SMTP 4xx such as
 * 454 "Temporary authentication failure", sent while the auth service starts or is overloaded)
 * may take them a moment later: that connect is retried on the host's schedule.
 */

/** IMAP response codes (RFC 5530) of a login the server could not check now. */
const IMAP_TEMPORARY = new Set(['UNAVAILABLE', 'SERVERBUG', 'INUSE', 'LIMIT']);

/** The fields imapflow and nodemailer put on a failed login. */
interface LoginError extends Error {
  /** nodemailer: `EAUTH` for a failed AUTH exchange. */
  code?: string;
  /** nodemailer: the SMTP reply code (e.g. 535, 454). */
  responseCode?: number;
  /** imapflow: the server answered LOGIN/AUTHENTICATE with a tagged NO or BAD. */
  authenticationFailed?: boolean;
  /** imapflow: the bracketed response code of that answer (e.g. `AUTHENTICATIONFAILED`). */
  serverResponseCode?: string;
}

/** True when `err`, from a login on `side`, says the credentials were refused (retrying cannot help). */
export function loginRefused(err: Error, side: 'imap' | 'smtp'): boolean {
  const e = err as LoginError;
  if (side === 'smtp') {
    if (typeof e.responseCode === 'number')
      return e.responseCode >= 500 && (e.code === 'EAUTH' || e.responseCode === 535);
    // an AUTH that failed before any reply: missing credentials or no method both sides know
    return e.code === 'EAUTH';
  }
  if (e.authenticationFailed !== true) return false;
  return !IMAP_TEMPORARY.has((e.serverResponseCode ?? '').toUpperCase());
}

/**
 * The error `connect` throws for a failed login on `side`: the message prefixed with the side,
 * marked `(login refused)` and `permanent: true` when the credentials were refused.
 */
export function loginError(err: Error, side: 'imap' | 'smtp'): Error {
  const refused = loginRefused(err, side);
  const out = new Error(`${side}: ${err.message}${refused ? ' (login refused)' : ''}`);
  return refused ? Object.assign(out, { permanent: true }) : out;
}
