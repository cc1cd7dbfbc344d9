/**
 * The secret-exfiltration rule for `curl`/`wget` lines and URLs in untrusted text.
 *
 * A secret is an environment-variable reference whose name ends in KEY, TOKEN, SECRET, PASSWORD,
 * PASSWD or CREDENTIAL(S) (`$GITHUB_TOKEN`, `${OPENAI_API_KEY}`; `$TRILLIUM_ETAPI_URL` is not), or
 * a secret file (`.env`, `id_rsa`, `id_ed25519`, `credentials`, `.netrc`, `.pgpass`).
 *
 * Exfiltration:
 * - a secret inside a URL (`https://x.example/$API_KEY`, `?t=${GITHUB_TOKEN}`), anywhere;
 * - a `curl`/`wget` line that sends a secret in its body or as an upload (`-d`, `--data*`, `-F`,
 *   `-T`, `--post-data`, `@.env`);
 * - a `curl`/`wget` line that carries a secret in a header (`-H "Authorization: token
 *   $GITHUB_TOKEN"`) to a host the secret does not belong to, or with no literal host.
 *
 * Allowed: a secret in a header sent to the service it belongs to. A secret belongs to a host
 * when the first word of the variable's name (or its known alias: GH → github, HF → huggingface)
 * the host's registrable name (the label before the top-level domain): `$GITHUB_TOKEN` →
 * `api.github.com`, `$OPENAI_API_KEY` → `api.openai.com`, but not `api.github.evil.example`.
 */

/** A secret-ish environment-variable reference. */
export const SECRET_VAR = /\$\{?(\w*?(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)S?)\}?(?!\w)/gi;

const SECRET_FILE =
  /(?:^|[\s/'"=@])(?:\.env|\.netrc|\.pgpass|\.git-credentials|credentials|id_rsa|id_ed25519|id_ecdsa)\b/i;

const URL_RE = /\bhttps?:\/\/[^\s'"`<>)]+/gi;

/** Options whose value is sent as the request body or uploaded. */
const BODY_OPTS = new Set([
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-urlencode',
  '--data-ascii',
  '-F',
  '--form',
  '--form-string',
  '-T',
  '--upload-file',
  '--json',
  '--post-data',
  '--post-file',
  '--body-data',
  '--body-file',
]);
/** Options whose value is a credential sent to the destination (a header, basic auth …). */
const HEADER_OPTS = new Set([
  '-H',
  '--header',
  '-u',
  '--user',
  '--oauth2-bearer',
  '--password',
  '--http-password',
]);

/** Known short prefixes of secret names and the host label they belong to. */
const ALIASES: Readonly<Record<string, string>> = { gh: 'github', hf: 'huggingface', glab: 'gitlab' };
/** Other registrable domains a service serves its API or content from. */
const OWNER_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  github: ['githubusercontent.com', 'ghcr.io'],
  huggingface: ['hf.co'],
};

/** One finding of the rule: which tool (curl, wget, url) and the offending text (≤ 120 chars). */
export interface ExfilFinding {
  id: 'exfil_curl' | 'exfil_wget' | 'exfil_url';
  excerpt: string;
}

function hostsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(URL_RE)) {
    try {
      out.push(new URL(m[0].replace(/\$\{?\w+\}?/g, 'x')).hostname.toLowerCase());
    } catch {
      /* not a URL after all */
    }
  }
  return out;
}

/** True when the secret variable belongs to `host` (see the module comment). */
export function secretBelongsTo(varName: string, host: string): boolean {
  const first = varName.toLowerCase().split('_').find(Boolean) ?? '';
  const owner = ALIASES[first] ?? first;
  if (owner.length < 2) return false;
  const labels = host.split('.');
  if (labels.length >= 2 && labels[labels.length - 2] === owner) return true;
  return (OWNER_DOMAINS[owner] ?? []).some((d) => host === d || host.endsWith(`.${d}`));
}

/** Splits a command line into segments separated by `|`, `;`, `&&`, `||` and newlines. */
function segments(text: string): string[] {
  return text.replace(/\\\r?\n/g, ' ').split(/\n|\|\|?|;|&&/);
}

/** Shell-like words of a segment: whitespace-separated, quotes grouping (and removed). */
function words(seg: string): string[] {
  const out: string[] = [];
  for (const m of seg.matchAll(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g)) out.push(m[0].replace(/["']/g, ''));
  return out;
}

const hasSecret = (w: string): boolean => new RegExp(SECRET_VAR.source, 'i').test(w);

/**
 * Inspects one curl/wget segment: where each secret goes — a URL, a body or upload, a header or
 * credential option — and where the request goes.
 */
function judgeTransfer(seg: string, tool: 'curl' | 'wget'): ExfilFinding | undefined {
  const id = tool === 'curl' ? 'exfil_curl' : 'exfil_wget';
  const excerpt = seg.trim().slice(0, 120);
  if (
    SECRET_FILE.test(seg.replace(URL_RE, ' ')) &&
    /(?:^|\s)(?:-[dFT]|--data\S*|--form\S*|--upload-file|--post-file|--body-file|\S*@)/.test(seg)
  )
    return { id, excerpt };
  const ws = words(seg);
  const inHeaders: string[] = [];
  for (let i = 1; i < ws.length; i++) {
    const w = ws[i]!;
    // `--opt=value`; `-sH VALUE` (bundled short options: the last one takes the value)
    const [opt, inline] =
      w.startsWith('--') && w.includes('=')
        ? [w.slice(0, w.indexOf('=')), w]
        : /^-[A-Za-z]{2,}$/.test(w)
          ? [`-${w.at(-1)!}`, undefined]
          : [w, undefined];
    const takesValue = BODY_OPTS.has(opt) || HEADER_OPTS.has(opt);
    const value = inline ?? (takesValue ? (ws[i + 1] ?? '') : w);
    if (takesValue && inline === undefined) i += 1;
    if (!hasSecret(value)) continue;
    if (HEADER_OPTS.has(opt)) {
      inHeaders.push(...[...value.matchAll(SECRET_VAR)].map((m) => m[1]!));
      continue;
    }
    return { id, excerpt }; // in a body, an upload, a URL or another argument
  }
  if (inHeaders.length === 0) return undefined;
  const hosts = hostsOf(seg);
  if (hosts.length === 0) return { id, excerpt };
  return inHeaders.every((v) => hosts.every((h) => secretBelongsTo(v, h))) ? undefined : { id, excerpt };
}

/**
 * Applies the exfiltration rule to `text` (already NFKC-normalised by the caller).
 * @returns the first finding, or undefined.
 */
export function findExfiltration(text: string): ExfilFinding | undefined {
  for (const seg of segments(text)) {
    const tool = /\b(curl|wget)\b/i.exec(seg)?.[1]?.toLowerCase();
    if (tool === 'curl' || tool === 'wget') {
      const f = judgeTransfer(seg.slice(seg.toLowerCase().indexOf(tool)), tool);
      if (f) return f;
      continue;
    }
    for (const m of seg.matchAll(URL_RE)) {
      if (new RegExp(SECRET_VAR.source, 'i').test(m[0]))
        return { id: 'exfil_url', excerpt: m[0].slice(0, 120) };
    }
  }
  return undefined;
}
