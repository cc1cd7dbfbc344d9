/**
 * Mail the bot must never answer, so that two robots cannot mail each other forever (RFC 3834):
 * auto-replies (`Auto-Submitted` other than `no`, `X-Autoreply`, `X-Autorespond`), bulk and list
 * mail (`Precedence: bulk/junk/list`, `List-Id`, `List-Unsubscribe`), bounces and delivery
 * reports (a `MAILER-DAEMON`/`postmaster` sender, `Content-Type: multipart/report`, an empty
 * `Return-Path: <>`), and mail from the bot's own address. The bot's replies carry
 * `Auto-Submitted: auto-replied` so other robots leave them alone too.
 */

/** Header values by lower-case name (the first occurrence; values unfolded). */
export type HeaderView = Readonly<Record<string, string>>;

/** The header every mail of the bot carries (RFC 3834 §5). */
export const AUTO_SUBMITTED_HEADER = { 'Auto-Submitted': 'auto-replied' } as const;

/** Sender local parts of mail systems (bounces, delivery reports). */
const SYSTEM_SENDERS =
  /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|bounces?|no-?reply|do-?not-?reply)([+-].*)?@/i;

/**
 * Why a mail is automated, or undefined when a person wrote it.
 * @param headers the mail's headers by lower-case name.
 * @param from the sender's address (lower case).
 * @param own the bot's own addresses (lower case).
 */
export function automatedReason(
  headers: HeaderView,
  from: string,
  own: readonly string[],
): string | undefined {
  if (!from) return 'no sender address';
  if (own.includes(from.toLowerCase())) return 'sent by the bot itself';
  const auto = headers['auto-submitted']?.trim().toLowerCase();
  if (auto && !/^no\b/.test(auto)) return `Auto-Submitted: ${auto}`;
  if (headers['x-autoreply'] !== undefined || headers['x-autorespond'] !== undefined) return 'an auto-reply';
  const suppress = headers['x-auto-response-suppress']?.toLowerCase() ?? '';
  if (
    /\b(all|autoreply|oof)\b/.test(suppress) &&
    headers['x-ms-exchange-generated-message-source'] !== undefined
  )
    return 'an Exchange auto-reply';
  const precedence = headers['precedence']?.trim().toLowerCase();
  if (precedence && /^(bulk|junk|list|auto_reply)\b/.test(precedence)) return `Precedence: ${precedence}`;
  if (headers['list-id'] !== undefined) return 'a mailing-list mail (List-Id)';
  if (headers['list-unsubscribe'] !== undefined) return 'a mailing-list mail (List-Unsubscribe)';
  const contentType = headers['content-type']?.toLowerCase() ?? '';
  if (/^multipart\/report\b/.test(contentType)) return 'a delivery report (multipart/report)';
  if (SYSTEM_SENDERS.test(from)) return `a mail-system sender (${from.split('@')[0]})`;
  const returnPath = headers['return-path'];
  if (returnPath !== undefined && /^\s*<\s*>\s*$/.test(returnPath)) return 'a bounce (empty Return-Path)';
  return undefined;
}

/**
 * Header view of raw header lines (`Name: value`, continuation lines already joined, as
 * mailparser's `headerLines` gives them): the first occurrence of each name wins.
 */
export function headerView(lines: ReadonlyArray<{ key: string; line: string }>): HeaderView {
  const out: Record<string, string> = {};
  for (const { key, line } of lines) {
    const name = key.toLowerCase();
    if (name in out) continue;
    const colon = line.indexOf(':');
    out[name] = (colon >= 0 ? line.slice(colon + 1) : '').replace(/\r?\n[ \t]+/g, ' ').trim();
  }
  return out;
}
