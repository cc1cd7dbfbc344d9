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

const BODY_FLAG =
  /(?:^|\s)(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|-F|--form(?:-string)?|-T|--upload-file|--post-data|--post-file|--body-data|--body-file|--json)(?:[\s=]|$)/;

/** Known short prefixes of secret names and the host label they belong to. */
const ALIASES: Readonly<Record<string, string>> = { gh: 'github', hf: 'huggingface', glab: 'gitlab' };

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
  return labels.length >= 2 && labels[labels.length - 2] === owner;
}

/** Splits a command line into segments separated by `|`, `;`, `&&`, `||` and newlines. */
function segments(text: string): string[] {
  return text.split(/\n|\|\|?|;|&&/);
}

/** Inspects one curl/wget segment. */
function judgeTransfer(seg: string, tool: 'curl' | 'wget'): ExfilFinding | undefined {
  const id = tool === 'curl' ? 'exfil_curl' : 'exfil_wget';
  const excerpt = seg.trim().slice(0, 120);
  const vars = [...seg.matchAll(SECRET_VAR)].map((m) => m[1]!);
  const hasSecretFile = SECRET_FILE.test(seg.replace(URL_RE, ' '));
  if (vars.length === 0 && !hasSecretFile) return undefined;
  if (hasSecretFile) return { id, excerpt };
  const urls = [...seg.matchAll(URL_RE)].map((m) => m[0]);
  if (urls.some((u) => new RegExp(SECRET_VAR.source, 'i').test(u))) return { id, excerpt };
  if (BODY_FLAG.test(seg)) return { id, excerpt };
  const hosts = hostsOf(seg);
  if (hosts.length === 0) return { id, excerpt };
  const ok = vars.every((v) => hosts.every((h) => secretBelongsTo(v, h)));
  return ok ? undefined : { id, excerpt };
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
