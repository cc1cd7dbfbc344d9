/**
 * Invisible Unicode in untrusted text: characters a reader does not see but a model reads
 * (zero-width characters, bidi embeddings/overrides/isolates, the BOM, invisible operators,
 * Unicode tag characters). Emoji sequences that legitimately use some of them are allowed:
 * a ZERO WIDTH JOINER between two emoji (👨‍👩‍👧, 🧑‍💻, 🏳️‍🌈) and the tag characters of a
 * subdivision flag (🏴 + tags + CANCEL TAG).
 */

/** Invisible characters refused, with their names. */
export const INVISIBLE_CHARS: ReadonlyMap<number, string> = new Map([
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2060, 'WORD JOINER'],
  [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 'INVISIBLE PLUS'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0xfeff, 'BYTE ORDER MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
]);

const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

const isTag = (cp: number): boolean => cp >= 0xe0000 && cp <= 0xe007f;
const isSkinTone = (cp: number): boolean => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isPictographic = (ch: string | undefined): boolean => ch !== undefined && PICTOGRAPHIC.test(ch);

/** True when the code point before a ZWJ ends an emoji (the emoji itself, VS16 or a skin tone). */
function endsEmoji(chars: readonly string[], i: number): boolean {
  let j = i - 1;
  while (j >= 0) {
    const cp = chars[j]!.codePointAt(0)!;
    if (cp === VS16 || isSkinTone(cp)) {
      j -= 1;
      continue;
    }
    return isPictographic(chars[j]);
  }
  return false;
}

/** One invisible character found: its code point, name and UTF-16 index in the text. */
export interface InvisibleFinding {
  codePoint: number;
  name: string;
  index: number;
}

/**
 * Finds the first invisible character that is not part of an emoji sequence.
 * @returns undefined when the text has none.
 */
export function findInvisible(text: string): InvisibleFinding | undefined {
  const chars = Array.from(text);
  let index = 0;
  let inFlagTags = false;
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if (isTag(cp)) {
      if (!inFlagTags && i > 0 && chars[i - 1]!.codePointAt(0) === BLACK_FLAG) inFlagTags = true;
      if (!inFlagTags) return { codePoint: cp, name: 'TAG CHARACTER', index };
      if (cp === CANCEL_TAG) inFlagTags = false;
    } else {
      if (inFlagTags) {
        // a flag's tag run must end with CANCEL TAG; the run just seen did not
        return { codePoint: chars[i - 1]!.codePointAt(0)!, name: 'TAG CHARACTER', index: index - 2 };
      }
      const name = INVISIBLE_CHARS.get(cp);
      if (name && !(cp === ZWJ && endsEmoji(chars, i) && isPictographic(chars[i + 1]))) {
        return { codePoint: cp, name, index };
      }
    }
    index += ch.length;
  }
  if (inFlagTags)
    return { codePoint: chars.at(-1)!.codePointAt(0)!, name: 'TAG CHARACTER', index: index - 2 };
  return undefined;
}

/** `U+XXXX` for a code point (at least four hex digits). */
export function formatCodePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * C0/C1 controls but tab and newline, bidi overrides and isolates, zero-width characters and the
 * BOM: what untrusted text quoted to a model gets blanked, so it cannot hide or reorder what the
 * model reads (global: use with `replace`).
 */
export const HIDING_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
