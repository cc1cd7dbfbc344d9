/**
 * What the sender wrote in a reply, without the history mail clients append: quoted lines
 * (`> …`), the quoted block after an attribution line ("On Mon, … Alice wrote:", "Am … schrieb
 * …:", "Le … a écrit :"), Outlook's and Gmail's forwarded-reply headers ("-----Original
 * Message-----", "From: … Sent: … To: … Subject: …", "________________"), and signatures (the
 * standard `-- ` delimiter and common phone footers: "Sent from my iPhone"). Everything after the
 * first history marker is dropped; what stays is trimmed of trailing blank lines.
 */

/** Attribution lines that start a quoted reply (the line may wrap onto the next one). */
const ATTRIBUTION = [
  /^On\s.{1,300}\swrote:\s*$/i,
  /^On\s.{1,300}$/i, // wrapped: "On Mon, 1 Jan 2024 at 10:00, Alice" + "<a@b> wrote:"
  /^Am\s.{1,300}\sschrieb\s.{0,200}:\s*$/i,
  /^Le\s.{1,300}\sa\s+écrit\s*:\s*$/i,
  /^El\s.{1,300}\sescribió:\s*$/i,
];

/** "Alice <a@example.com> wrote:": history only when quoted lines follow. */
const GENERIC_ATTRIBUTION = /^.{1,200}\s(?:wrote|writes):\s*$/i;

/** Lines that start Outlook-style or forwarded history. */
const HISTORY_START = [
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/, // Outlook's rule above "From: … Sent: …"
  /^Begin forwarded message:\s*$/i,
];

/** Outlook's reply header block: From:, then Sent:/Date:, To:, Subject: within a few lines. */
const HEADER_FROM = /^\*?From:\*?\s+\S/i;
const HEADER_NEXT = /^\*?(Sent|Date|To|Cc|Subject):\*?\s/i;

/** Footers of mobile clients and the like, taken as a signature when alone on their line. */
const SIGNOFF = [
  /^Sent from my (iPhone|iPad|Android|BlackBerry|mobile|phone|Galaxy|Samsung|Pixel)\b.*$/i,
  /^Sent from (Outlook|Mail|Yahoo Mail|Gmail|ProtonMail|Proton Mail) for \S.*$/i,
  /^Sent from (Outlook|my Windows|Mail for Windows)\b.*$/i,
  /^Get Outlook for (iOS|Android)\b.*$/i,
  /^Sent with Proton Mail\b.*$/i,
  /^Von meinem \S+ gesendet\s*$/i,
  /^Envoyé de mon \S+\s*$/i,
];

function isAttribution(line: string, next: string | undefined): boolean {
  const t = line.trim();
  if (!t) return false;
  if (ATTRIBUTION[0]!.test(t) || ATTRIBUTION.slice(2).some((re) => re.test(t))) return true;
  // "On … <alice@example.com>" wrapped before "wrote:"
  if (ATTRIBUTION[1]!.test(t) && next !== undefined && /^(?:.{0,200}\s)?wrote:\s*$/i.test(next.trim()))
    return true;
  return false;
}

/** Index of the first non-blank line after `i`. */
function nextNonBlank(lines: readonly string[], i: number): number | undefined {
  for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim()) return j;
  return undefined;
}

/** The first non-blank line after `i` starts with `>`. */
function quoteFollows(lines: readonly string[], i: number): boolean {
  for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim()) return /^\s*>/.test(lines[j]!);
  return false;
}

function isOutlookHeader(lines: readonly string[], i: number): boolean {
  if (!HEADER_FROM.test(lines[i]!.trim())) return false;
  let seen = 0;
  for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
    const t = lines[j]!.trim();
    if (!t) continue;
    if (HEADER_NEXT.test(t)) seen++;
    else break;
  }
  return seen >= 2;
}

/**
 * Cuts quoted history and signatures off a plain-text mail body.
 * @param text the body (CRLF or LF).
 * @returns the sender's own words; may be empty (a reply that only quoted).
 */
export function stripQuotedText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    // the signature delimiter is "-- " exactly; clients that trim it leave "--"
    if (line === '-- ' || line === '--') break;
    if (HISTORY_START.some((re) => re.test(t))) break;
    if (isAttribution(line, lines[i + 1])) break;
    if (GENERIC_ATTRIBUTION.test(t) && quoteFollows(lines, i)) break;
    if (isOutlookHeader(lines, i)) break;
    // a rule (an HTML <hr> as text) right above an Outlook header block
    const after = /^-{10,}\s*$/.test(t) ? nextNonBlank(lines, i) : undefined;
    if (after !== undefined && isOutlookHeader(lines, after)) break;
    if (SIGNOFF.some((re) => re.test(t))) break;
    // quoted lines are dropped wherever they are (inline replies keep the text between them)
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  while (kept.length && !kept[kept.length - 1]!.trim()) kept.pop();
  while (kept.length && !kept[0]!.trim()) kept.shift();
  // a quote dropped between two paragraphs leaves runs of blank lines
  return kept.join('\n').replace(/\n{3,}/g, '\n\n');
}
