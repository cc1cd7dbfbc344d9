/**
 * The forms of untrusted text the scanner's patterns run on (the raw text is what is stored and
 * shown; these exist only for matching):
 * - `matchForm`: NFKC (full-width and mathematical letters become plain ones), with default-
 *   ignorable characters removed (soft hyphen, combining grapheme joiner …, which do not show
 *   but split a word; Hangul fillers read as a space), combining marks removed (`i̇gnore` → `ignore`) and
 *   Cyrillic and Greek letters that look like Latin ones replaced by those (`іgnоre` → `ignore`).
 * - `proseForm`: `matchForm` with markdown emphasis (`*`, `~`, `` ` ``) removed and `_`/`-`
 *   read as spaces, so `**ignore** all` and `ignore-all-previous` read as words.
 * - `base64Texts`: the text hidden in base64 runs (an instruction a model is asked to decode);
 *   runs that decode to binary (keys, hashes) are skipped.
 */

/** Cyrillic and Greek letters drawn like a Latin letter, and that letter. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ү: 'y',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ү: 'Y',
  // Greek
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  υ: 'u',
  τ: 't',
  χ: 'x',
  ε: 'e',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  // Latin letters drawn like another
  ı: 'i',
  ɡ: 'g',
  ɑ: 'a',
};
const LOOK_ALIKE_RE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/** `text` as the patterns read it (see the file comment). */
export function matchForm(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u115f\u1160\u3164\uffa0]/g, ' ') // Hangul fillers stand for a space
    .replace(/\p{Default_Ignorable_Code_Point}|\p{Mn}/gu, '')
    .replace(LOOK_ALIKE_RE, (c) => LOOK_ALIKES[c] ?? c)
    .normalize('NFKC');
}

/** `matchForm(text)` read as prose: markdown emphasis dropped, `_` and `-` as spaces. */
export function proseForm(normal: string): string {
  return normal.replace(/[*~`]+/g, '').replace(/[_-]+/g, ' ');
}

/** Base64 runs looked at, at most, and the longest one decoded (chars). */
const MAX_BASE64_RUNS = 32;
const MAX_BASE64_CHARS = 8_192;
const BASE64_RUN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * The texts of base64 (or base64url) runs of at least 20 chars in `text` that decode to readable
 * UTF-8 (no control bytes but tab, CR and LF), at most `MAX_BASE64_RUNS` of them.
 */
export function base64Texts(text: string): string[] {
  const out: string[] = [];
  let n = 0;
  for (const m of text.matchAll(BASE64_RUN)) {
    if (++n > MAX_BASE64_RUNS) break;
    const run = m[0];
    if (run.length > MAX_BASE64_CHARS || !/[0-9+/_-]|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(run)) continue;
    const bytes = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    const decoded = bytes.toString('utf8');
    if (decoded.length < 8 || decoded.includes('\uFFFD')) continue;
    if (bytes.some((b) => b === 0x7f || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d))) continue;
    out.push(decoded);
  }
  return out;
}
