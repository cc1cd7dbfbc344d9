/**
 * Mail threading (RFC 5322 §3.6.4): a conversation is identified by its root Message-ID — the
 * first id of `References`, else `In-Reply-To`, else the mail's own id (a new subject without
 * references starts a new conversation). Replies carry `In-Reply-To: <parent>` and
 * `References: <parent's references> <parent>` and a `Re:` subject.
 */
import { createHash } from 'node:crypto';

/** Message ids (`<…>`) in a header value, in order, duplicates dropped. */
export function messageIds(value: string | readonly string[] | undefined): string[] {
  const raw = Array.isArray(value) ? value.join(' ') : ((value as string | undefined) ?? '');
  const out: string[] = [];
  for (const m of raw.matchAll(/<[^<>\s]+>/g)) if (!out.includes(m[0])) out.push(m[0]);
  return out;
}

/**
 * The root id of the conversation a mail belongs to.
 * @param own the mail's Message-ID (`<…>`).
 */
export function threadRoot(own: string, references: readonly string[], inReplyTo: readonly string[]): string {
  return references[0] ?? inReplyTo[0] ?? own;
}

/**
 * A short stable token of a root id, used as the thread id of the session key (`:` and `<>` of
 * raw ids never reach the key): 16 hex characters of its SHA-256.
 */
export function threadToken(rootId: string): string {
  return createHash('sha256').update(rootId.toLowerCase()).digest('hex').slice(0, 16);
}

/** `Re: <subject>` unless the subject already starts with a reply prefix. */
export function replySubject(subject: string | undefined, fallback: string): string {
  const s = (subject ?? '').replace(/\s+/g, ' ').trim();
  if (!s) return `Re: ${fallback}`;
  return /^(re|aw|sv|antw|réf)\s*(\[\d+\])?\s*:/i.test(s) ? s : `Re: ${s}`;
}

/**
 * `References` of a reply to `parent`: the parent's references plus the parent, the root kept
 * and the middle trimmed when longer than `max` ids (RFC 5322 allows trimming).
 */
export function replyReferences(parentRefs: readonly string[], parent: string, max = 20): string[] {
  const all = [...parentRefs.filter((r) => r !== parent), parent];
  if (all.length <= max) return all;
  return [all[0]!, ...all.slice(all.length - (max - 1))];
}

/**
 * A Message-ID for an outgoing mail: stable for one delivery id (so a retried send carries the
 * same id and receiving systems can drop the copy), random otherwise.
 */
export function outgoingMessageId(domain: string, deliveryId?: string): string {
  const seed = deliveryId ?? `${Date.now()}-${Math.random()}-${process.pid}`;
  const h = createHash('sha256').update(seed).digest('hex').slice(0, 24);
  return `<hermes.${h}@${domain}>`;
}
