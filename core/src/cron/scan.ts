/**
 * The cron prompt scan. A job runs unattended with the full tool set, and its prompt may carry
 * mail or web text, so prompts are scanned when a job is created or edited, and the assembled
 * prompt (skills + prompt) again before each run. The rules are the shared content scanner's
 * `cron` scope (core/src/security/content-scan.ts): instruction overrides, role hijack,
 * deception, hidden markup, secret exfiltration (a GitHub token sent in a header to
 * api.github.com is fine; a secret in a URL or to another host is not), persistence
 * (authorized_keys, sudoers, shell rc files, crontab), `rm -rf /`, invisible Unicode (emoji ZWJ
 * sequences such as 👨‍👩‍👧 are fine), and stopping or restarting the daemon that runs the job.
 */
import { scanContent, type ContentFinding } from '../security/content-scan.js';
import { THREAT_PATTERNS } from '../security/threat-patterns.js';

export { findInvisible } from '../security/invisible.js';

/** Outcome of a scan: `ok`, or the first finding. */
export type ScanResult =
  | { ok: true }
  | { ok: false; id: string; threatClass: string; message: string; codePoint?: number; index?: number };

function messageOf(f: ContentFinding, what: string): string {
  if (f.threatClass === 'invisible_unicode') {
    return `Blocked: the ${what} ${f.description} at position ${f.index ?? 0}; such text can hide instructions. Remove it and try again.`;
  }
  return `Blocked: the ${what} matches threat pattern "${f.id}" (${f.threatClass}: ${f.description}): "${f.excerpt}".`;
}

/**
 * Scans a cron prompt.
 * @param what how to name the text in the message (`prompt`, `assembled prompt`).
 * @returns `{ok: true}` or the first finding, whose message names the pattern and its class.
 */
export function scanCronPrompt(text: string, what = 'prompt'): ScanResult {
  const f = scanContent(text, 'cron')[0];
  if (!f) return { ok: true };
  return {
    ok: false,
    id: f.id,
    threatClass: f.threatClass,
    message: messageOf(f, what),
    ...(f.codePoint !== undefined ? { codePoint: f.codePoint, index: f.index } : {}),
  };
}

/** A cron prompt was refused by the scan. */
export class CronPromptBlockedError extends Error {
  constructor(readonly finding: Extract<ScanResult, { ok: false }>) {
    super(finding.message);
    this.name = 'CronPromptBlockedError';
  }
}

/** Scans and throws `CronPromptBlockedError` on a finding. */
export function assertCleanPrompt(text: string, what = 'prompt'): void {
  const r = scanCronPrompt(text, what);
  if (!r.ok) throw new CronPromptBlockedError(r);
}

const LIFECYCLE = THREAT_PATTERNS.find((p) => p.id === 'gateway_lifecycle')!.pattern;

/**
 * True when a shell command's text would stop or restart the daemon. Cron runs judge `terminal`
 * calls by the parsed rule `hermes-daemon-kill` (approvals/rules/self-daemon.ts); this text
 * pattern decides only lines the shell analyser cannot parse completely.
 */
export function isGatewayLifecycleCommand(command: string): boolean {
  return LIFECYCLE.test(command.normalize('NFKC'));
}
