/**
 * The content scanner for untrusted text that will be stored as instructions: memory writes,
 * project context files, skills being saved and cron prompts. One finding names a threat class
 * (role_hijack, instruction_override, secret_exfiltration, persistence, invisible_unicode …) and
 * the pattern that matched; callers refuse the write or replace the text with a visible
 * `[BLOCKED: …]` note.
 *
 * Invisible characters are looked for in the raw text; patterns run on its match form
 * (fold.ts: NFKC, look-alike letters as Latin, combining marks and ignorable characters removed),
 * and again on that form read as prose (markdown emphasis removed, `_`/`-` as spaces; not for
 * the markup patterns), and on the text of base64 runs that decode to readable text (fold.ts).
 * At most `MAX_SCAN_CHARS` are scanned; a longer text is a finding of its own (`too_large`),
 * never passed with an unscanned tail.
 */
import { findExfiltration } from './exfiltration.js';
import { base64Texts, matchForm, proseForm } from './fold.js';
import { findInvisible, formatCodePoint } from './invisible.js';
import { THREAT_PATTERNS, type ScanScope, type ThreatClass } from './threat-patterns.js';

export type { ScanScope, ThreatClass, ThreatPattern } from './threat-patterns.js';
export { THREAT_PATTERNS } from './threat-patterns.js';

/** Longest text scanned, in chars. */
export const MAX_SCAN_CHARS = 65_536;

/** One finding of the scanner. */
export interface ContentFinding {
  threatClass: ThreatClass | 'too_large';
  /** Pattern id (`role_hijack`, `exfil_curl`, `invisible_unicode` …). */
  id: string;
  description: string;
  /** The matched text (≤ 80 chars), or the code point for invisible characters. */
  excerpt: string;
  /** For invisible characters: the code point and its UTF-16 index. */
  codePoint?: number;
  index?: number;
}

const EXFIL_DESCRIPTIONS: Record<string, string> = {
  exfil_curl: 'sends a secret somewhere with curl',
  exfil_wget: 'sends a secret somewhere with wget',
  exfil_url: 'puts a secret into a URL',
};

/**
 * Scans `text` for the given scope.
 * @returns every finding in table order (invisible characters first); `[]` when clean.
 */
export function scanContent(text: string, scope: ScanScope): ContentFinding[] {
  if (!text) return [];
  if (text.length > MAX_SCAN_CHARS) {
    return [
      {
        threatClass: 'too_large',
        id: 'too_large',
        description: `is longer than the ${MAX_SCAN_CHARS}-char scan window`,
        excerpt: `${text.length} chars`,
      },
    ];
  }
  const out: ContentFinding[] = [];
  const inv = findInvisible(text);
  if (inv) {
    out.push({
      threatClass: 'invisible_unicode',
      id: 'invisible_unicode',
      description: `contains an invisible character ${formatCodePoint(inv.codePoint)} (${inv.name})`,
      excerpt: formatCodePoint(inv.codePoint),
      codePoint: inv.codePoint,
      index: inv.index,
    });
  }
  const normal = matchForm(text);
  const prose = proseForm(normal);
  const encoded = base64Texts(text).map(matchForm);
  const seen = new Set<string>();
  for (const p of THREAT_PATTERNS) {
    if (!p.scopes.includes(scope) || seen.has(p.id)) continue;
    // markup patterns read the markup itself; the prose form is for words
    const asProse = prose !== normal && p.threatClass !== 'hidden_markup';
    const m = p.pattern.exec(normal) ?? (asProse ? p.pattern.exec(prose) : null);
    const hidden = m ? null : firstMatch(p.pattern, encoded);
    const found = m ?? hidden;
    if (found) {
      seen.add(p.id);
      out.push({
        threatClass: p.threatClass,
        id: p.id,
        description: hidden ? `${p.description} (base64-encoded)` : p.description,
        excerpt: found[0].trim().slice(0, 80),
      });
    }
  }
  const ex = findExfiltration(normal);
  if (ex) {
    out.push({
      threatClass: 'secret_exfiltration',
      id: ex.id,
      description: EXFIL_DESCRIPTIONS[ex.id]!,
      excerpt: ex.excerpt.slice(0, 80),
    });
  }
  return out;
}

function firstMatch(pattern: RegExp, texts: readonly string[]): RegExpExecArray | null {
  for (const t of texts) {
    const m = pattern.exec(t);
    if (m) return m;
  }
  return null;
}

/** The first finding, or undefined when the text is clean. */
export function firstThreat(text: string, scope: ScanScope): ContentFinding | undefined {
  return scanContent(text, scope)[0];
}

/** Distinct threat classes of a list of findings, in order. */
export function threatClasses(findings: readonly ContentFinding[]): string[] {
  return [...new Set(findings.map((f) => f.threatClass))];
}
