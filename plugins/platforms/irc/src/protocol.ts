/**
 * IRC wire format (RFC 1459 / 2812, IRCv3 message tags): parsing one line, formatting commands,
 * and cutting outgoing text to the 512-byte line limit.
 */
/* eslint-disable no-control-regex -- protocol bytes (CR, LF, NUL) are control characters */

/** One parsed line. */
export interface IrcMessage {
  /** IRCv3 tags (unescaped values). */
  tags: Record<string, string>;
  /** `nick!user@host` or a server name; '' when absent. */
  prefix: string;
  /** Upper-cased command or 3-digit numeric. */
  command: string;
  /** Middle parameters and the trailing one (last). */
  params: string[];
}

/** Bytes of one line on the wire, CRLF included (RFC 2812 §2.3). */
export const MAX_LINE_BYTES = 512;

/**
 * Bytes of message text per PRIVMSG line. The server prepends `:nick!user@host ` when it relays
 * the line, so text is kept well below 512 minus the command (a common bot budget).
 */
export const MAX_TEXT_BYTES = 400;

function unescapeTag(v: string): string {
  return v.replace(/\\(.)/g, (_m, c: string) => ({ ':': ';', s: ' ', r: '\r', n: '\n', '\\': '\\' })[c] ?? c);
}

/** Parses one line (without CRLF). @returns undefined for an empty or malformed line. */
export function parseLine(raw: string): IrcMessage | undefined {
  let line = raw.replace(/[\r\n]+$/, '');
  if (!line) return undefined;
  const tags: Record<string, string> = {};
  if (line.startsWith('@')) {
    const sp = line.indexOf(' ');
    if (sp === -1) return undefined;
    for (const t of line.slice(1, sp).split(';')) {
      const eq = t.indexOf('=');
      if (eq === -1) tags[t] = '';
      else tags[t.slice(0, eq)] = unescapeTag(t.slice(eq + 1));
    }
    line = line.slice(sp + 1).trimStart();
  }
  let prefix = '';
  if (line.startsWith(':')) {
    const sp = line.indexOf(' ');
    if (sp === -1) return undefined;
    prefix = line.slice(1, sp);
    line = line.slice(sp + 1).trimStart();
  }
  const params: string[] = [];
  let command = '';
  while (line) {
    if (command && line.startsWith(':')) {
      params.push(line.slice(1));
      break;
    }
    const sp = line.indexOf(' ');
    const word = sp === -1 ? line : line.slice(0, sp);
    if (!command) command = word.toUpperCase();
    else params.push(word);
    line = sp === -1 ? '' : line.slice(sp + 1).trimStart();
  }
  return command ? { tags, prefix, command, params } : undefined;
}

/** The nick part of a `nick!user@host` prefix. */
export function nickOf(prefix: string): string {
  const i = prefix.indexOf('!');
  return i === -1 ? prefix : prefix.slice(0, i);
}

/** True for a channel name (`#`, `&`, `+`, `!`). */
export function isChannel(target: string): boolean {
  return /^[#&+!]/.test(target);
}

/** IRC's case mapping (rfc1459): `[]\~` are the upper case of `{}|^`. */
export function ircLower(s: string): string {
  return s.toLowerCase().replace(/[[\]\\~]/g, (c) => ({ '[': '{', ']': '}', '\\': '|', '~': '^' })[c]!);
}

/**
 * Removes what must never reach the wire inside a parameter: CR, LF and NUL (they would end the
 * line or the string and let text inject commands).
 */
export function sanitizeParam(s: string): string {
  return s.replace(/[\r\n\u0000]/g, ' ');
}

/**
 * Cuts text into PRIVMSG-sized pieces: one piece per line of the text, each at most
 * `maxBytes` UTF-8 bytes (cut at a space when one is near, never inside a character). Blank
 * lines are dropped.
 */
export function chunkText(text: string, maxBytes = MAX_TEXT_BYTES): string[] {
  const out: string[] = [];
  for (const rawLine of text
    .replace(/\r\n?/g, '\n')
    .replace(/\u0000/g, ' ')
    .split('\n')) {
    let line = rawLine.replace(/\s+$/, '');
    while (line) {
      if (Buffer.byteLength(line, 'utf8') <= maxBytes) {
        out.push(line);
        break;
      }
      let cut = 0;
      let bytes = 0;
      for (const ch of line) {
        const b = Buffer.byteLength(ch, 'utf8');
        if (bytes + b > maxBytes) break;
        bytes += b;
        cut += ch.length;
      }
      const space = line.lastIndexOf(' ', cut);
      if (space > cut / 2) cut = space;
      out.push(line.slice(0, cut).replace(/\s+$/, ''));
      line = line.slice(cut).replace(/^\s+/, '');
    }
  }
  return out.filter((l) => l.length > 0);
}
