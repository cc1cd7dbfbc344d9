/**
 * The silence rule, shared by messaging, cron and the API server: a model may answer a silence
 * marker to say "nothing to send this turn" (a monitoring job with nothing to report, a group
 * message not meant for it).
 *
 * Markers: `[SILENT]`, `SILENT`, `NO_REPLY`, `NO REPLY` and the Chinese forms `[静默]`, `静默`,
 * `[沉默]`, `沉默`. A reply is compared after canonicalisation: trimmed, upper-cased, inner
 * whitespace collapsed to one space; and again with edge punctuation stripped (`.NO_REPLY.`,
 * `*NO_REPLY*`, `NO_REPLY!!`, `【静默】`, `静默。`) — square brackets stay, so `[SILENT` is no
 * marker. The single-key JSON envelope `{"action":"NO_REPLY"}` counts as the marker it holds.
 * A reply longer than `MAX_SILENCE_CHARS` is never a marker; an empty reply is a failure, not
 * silence.
 *
 * - Interactive lanes (chats, the API server): only a whole reply that is a marker is silence.
 * - Autonomous lanes (cron, webhook): also a marker on the first or last non-blank line
 *   (`[SILENT]\n\nNothing new.`), a reply that opens with a bracketed marker
 *   (`[SILENT] No changes detected`), or a bracketed marker tacked on as the last sentence of the
 *   last line (`All clear today. [SILENT]`). A marker quoted inside prose
 *   (`Watchdog probe result: [SILENT]`, `the lane said 静默 mid-sentence`) is delivered.
 * - Streaming: while the text so far could still become a marker, it is held back (not shown
 *   or edited into a chat message) so a marker is never shown and then withdrawn.
 */

/** Markers that mean "send nothing" (canonical form: upper case, single spaces). */
export const SILENCE_MARKERS: readonly string[] = [
  '[SILENT]',
  'SILENT',
  'NO_REPLY',
  'NO REPLY',
  '[静默]',
  '静默',
  '[沉默]',
  '沉默',
];

const MARKER_SET = new Set(SILENCE_MARKERS);
const BRACKETED = SILENCE_MARKERS.filter((m) => m.startsWith('['));

/** Replies longer than this (trimmed, chars) are never a marker, whatever they contain. */
export const MAX_SILENCE_CHARS = 64;

const PUNCT = /\p{P}/u;
const isEdgePunct = (ch: string): boolean => ch !== '[' && ch !== ']' && PUNCT.test(ch);

function canonical(text: string): string {
  return text.trim().toUpperCase().split(/\s+/).filter(Boolean).join(' ');
}

function stripEdgePunct(text: string): string {
  const chars = Array.from(text);
  let a = 0;
  let b = chars.length;
  while (a < b && isEdgePunct(chars[a]!)) a += 1;
  while (b > a && isEdgePunct(chars[b - 1]!)) b -= 1;
  return chars.slice(a, b).join('').trim();
}

/** The marker a single-key JSON envelope `{"action": "<marker>"}` holds, canonical; else undefined. */
function envelopeAction(text: string): string | undefined {
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const keys = Object.keys(v);
    const action = (v as Record<string, unknown>).action;
    return keys.length === 1 && typeof action === 'string' ? canonical(action) : undefined;
  } catch {
    return undefined;
  }
}

/** Canonical forms of a marker-sized reply; `[]` when it is empty or too long. */
function candidates(text: unknown): string[] {
  const t = typeof text === 'string' ? text.trim() : '';
  if (t.length === 0 || t.length > MAX_SILENCE_CHARS) return [];
  const bare = stripEdgePunct(t);
  const forms = bare === t ? [canonical(t)] : [canonical(t), canonical(bare)];
  const env = envelopeAction(t);
  return env === undefined ? forms : [...forms, env];
}

/**
 * Interactive rule: true when the whole reply is a silence marker (see the module comment).
 * Prose that mentions a marker, an empty reply and anything over `MAX_SILENCE_CHARS` are not.
 */
export function isIntentionalSilence(text: string | null | undefined): boolean {
  return candidates(text).some((c) => MARKER_SET.has(c));
}

const TRAILING = new RegExp(
  String.raw`^(.*?)[("'“‘「『]?(${BRACKETED.map((m) => m.replace(/[[\]]/g, '\\$&')).join('|')})[)"'”’」』]?\p{P}*$`,
  'u',
);
const SENTENCE_END = /[.!?。！？…]$/u;

/**
 * Autonomous rule (cron, webhook): the interactive rule, or a marker on the first or last
 * non-blank line, or a reply opening with a bracketed marker, or a bracketed marker added as the
 * last sentence of the last line.
 */
export function isAutonomousSilence(text: string | null | undefined): boolean {
  const t = typeof text === 'string' ? text.trim() : '';
  if (!t) return false;
  const upper = t.toUpperCase();
  if (BRACKETED.some((m) => upper.startsWith(m))) return true;
  const lines = t.split(/\r?\n/).filter((l) => l.trim());
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  if ([t, first, last].some((l) => isIntentionalSilence(l))) return true;
  const m = TRAILING.exec(last.trim().toUpperCase());
  return !!m && m[1]!.trim() !== '' && SENTENCE_END.test(m[1]!.trim());
}

/** The silence rule of a lane. */
export function isSilenceFor(text: string | null | undefined, lane: 'interactive' | 'autonomous'): boolean {
  return lane === 'autonomous' ? isAutonomousSilence(text) : isIntentionalSilence(text);
}

const ENVELOPE_PREFIXES = SILENCE_MARKERS.map((m) => `{"ACTION":"${m}"}`);

/**
 * Streaming hold-back: true while the text streamed so far could still turn out to be a marker
 * (its canonical form is a non-empty prefix of one — `N`, `no_rep`, `[SIL`, `[静` — or of the JSON
 * envelope). Such text is not shown yet; once it diverges, or passes `MAX_SILENCE_CHARS`,
 * streaming resumes.
 */
export function mayBecomeSilence(partial: string | null | undefined): boolean {
  const cs = candidates(partial);
  if (cs.some((c) => c !== '' && SILENCE_MARKERS.some((m) => m.startsWith(c)))) return true;
  const compact = (partial ?? '').replace(/\s+/g, '').toUpperCase();
  return compact.startsWith('{') && ENVELOPE_PREFIXES.some((e) => e.startsWith(compact));
}
