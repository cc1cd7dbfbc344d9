/**
 * The cron prompt-injection scan. A job runs unattended with
 * the full tool set, and its prompt may carry mail or web text, so prompts are scanned when a
 * job is created or edited, and the assembled prompt (skills + prompt) again before each run.
 *
 * Refused:
 * - invisible Unicode: zero-width characters (U+200B-U+200D, U+2060, U+180E), bidi embeddings,
 *   overrides and isolates (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F), the BOM U+FEFF and
 *   Unicode tag characters (U+E0000-U+E007F): text the user does not see but the model reads;
 * - threat patterns (table below): instructions to ignore earlier instructions, to hide things
 *   from the user, system-prompt overrides, sending keys out with curl/wget, reading `.env` or
 *   credential files, touching `authorized_keys` or sudoers, `rm -rf /`;
 * - stopping or restarting the daemon that runs the job (`hermes gateway stop|restart`, killing
 *   its pid, `systemctl stop hermes-gateway` …): a job may not end its own scheduler.
 * Matching ignores case and runs on the NFKC form (full-width letters match).
 */

/** One threat pattern. */
export interface ThreatPattern {
  /** Stable id, named in the refusal. */
  id: string;
  description: string;
  pattern: RegExp;
}

const SECRET_WORD = String.raw`(?:key|token|secret|passw(?:or)?d|credential|api|auth)`;

/** Patterns refused in cron prompts. */
export const CRON_THREAT_PATTERNS: readonly ThreatPattern[] = [
  {
    id: 'prompt_injection',
    description: 'tells the agent to ignore its earlier instructions',
    pattern:
      /\b(?:ignore|forget|override)\s+(?:\w+\s+){0,4}(?:previous|prior|above|earlier|preceding|all|any|your)\s+(?:\w+\s+){0,3}(?:instructions?|rules|prompts?|directions|guidelines)\b/i,
  },
  {
    id: 'forget_context',
    description: 'tells the agent to forget or disregard what it was told before',
    pattern:
      /\b(?:forget|disregard|discard|drop|abandon)\s+(?:\w+\s+){0,3}(?:everything|all|anything)?\s*(?:you\s+(?:were|have\s+been)\s+(?:told|given|instructed)|(?:prior|previous|earlier|preceding|above)\s+(?:\w+\s+){0,2}(?:directives?|instructions?|messages?|context|orders?|commands?))/i,
  },
  {
    id: 'chat_template_tokens',
    description: 'contains chat-template control tokens that fake a system or assistant turn',
    pattern:
      /<\|(?:im_start|im_end|system|assistant|user|endoftext|eot_id|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>|^\s*(?:system|assistant)\s*:/im,
  },
  {
    id: 'disregard_rules',
    description: 'tells the agent to disregard its rules',
    pattern: /\bdisregard\s+(?:\w+\s+){0,3}(?:instructions?|rules|guidelines|policies|prompt)\b/i,
  },
  {
    id: 'deception_hide',
    description: 'tells the agent to hide something from the user',
    pattern:
      /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|show|mention\s+(?:this\s+)?to|let)\s+(?:\w+\s+){0,2}(?:the\s+)?user\b|\bhide\s+(?:\w+\s+){0,4}from\s+(?:the\s+)?user\b|\bwithout\s+(?:telling|informing)\s+(?:the\s+)?user\b/i,
  },
  {
    id: 'sys_prompt_override',
    description: 'claims to override or replace the system prompt',
    pattern:
      /\bsystem\s+prompt\s+(?:override|overwrite|replacement)\b|\b(?:override|replace|overwrite|ignore)\s+(?:the\s+|your\s+)?system\s+prompt\b|\bnew\s+system\s+prompt\s*:/i,
  },
  {
    id: 'exfil_curl',
    description: 'sends a secret somewhere with curl',
    pattern: new RegExp(
      String.raw`\bcurl\b[^\n]*(?:\$\{?\w*${SECRET_WORD}\w*|\.env\b|credentials|id_rsa|id_ed25519)`,
      'i',
    ),
  },
  {
    id: 'exfil_wget',
    description: 'sends a secret somewhere with wget',
    pattern: new RegExp(
      String.raw`\bwget\b[^\n]*(?:\$\{?\w*${SECRET_WORD}\w*|\.env\b|credentials|id_rsa|id_ed25519)`,
      'i',
    ),
  },
  {
    id: 'read_secrets',
    description: 'reads .env or credential files',
    pattern:
      /\b(?:cat|less|more|head|tail|type|print|read|show|dump|open|base64|xxd|strings)\b[^\n]*(?:(?:^|[\s/'"=])\.env\b|\bcredentials?\b|\.netrc\b|\.pgpass\b|\.aws\/|\.ssh\/id_|\.git-credentials\b)/i,
  },
  {
    id: 'ssh_backdoor',
    description: 'touches ~/.ssh/authorized_keys',
    pattern: /authorized_keys/i,
  },
  {
    id: 'sudoers_mod',
    description: 'touches sudoers',
    pattern: /\/etc\/sudoers|\bvisudo\b|\bsudoers\b/i,
  },
  {
    id: 'destructive_root_rm',
    description: 'deletes from the root of the file system (rm -rf /)',
    pattern:
      /\brm\s+(?:-[a-z]*\s+)*-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?["']?\/(?:\*|\s|["']|$)|--no-preserve-root/i,
  },
];

/** Stopping or restarting the daemon that runs cron: a job must not take down its own runner. */
export const GATEWAY_LIFECYCLE_PATTERN: ThreatPattern = {
  id: 'gateway_lifecycle',
  description: 'stops or restarts the Hermes daemon that runs this job',
  pattern:
    /\bhermes\s+(?:(?:-p|--profile)\s+\S+\s+)?gateway\s+(?:stop|restart|uninstall|kill)\b|\b(?:systemctl|service)\s+(?:--user\s+)?(?:stop|restart|kill|disable)\s+\S*hermes|\b(?:pkill|killall)\b[^\n]*\b(?:hermes|tui-gateway)\b|\bkill\b[^\n]*(?:tui-gateway(?:\.json|\.lock)?|\$\(\s*(?:pgrep|pidof)[^)]*hermes)/i,
};

/** Invisible characters refused in prompts, with their names. */
const INVISIBLE: ReadonlyMap<number, string> = new Map([
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2060, 'WORD JOINER'],
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

/** Outcome of a scan: `ok`, or the first finding. */
export type ScanResult =
  { ok: true } | { ok: false; id: string; message: string; codePoint?: number; index?: number };

/** Finds the first invisible character; undefined when there is none. */
export function findInvisible(text: string): { codePoint: number; name: string; index: number } | undefined {
  let index = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const name = INVISIBLE.get(cp) ?? (cp >= 0xe0000 && cp <= 0xe007f ? 'TAG CHARACTER' : undefined);
    if (name) return { codePoint: cp, name, index };
    index += ch.length;
  }
  return undefined;
}

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Scans a cron prompt.
 * @param what how to name the text in the message (`prompt`, `assembled prompt`).
 * @returns `{ok: true}` or the first finding, whose message names the pattern.
 */
export function scanCronPrompt(text: string, what = 'prompt'): ScanResult {
  const inv = findInvisible(text);
  if (inv) {
    return {
      ok: false,
      id: 'invisible_unicode',
      codePoint: inv.codePoint,
      index: inv.index,
      message: `Blocked: the ${what} contains an invisible character ${hex(inv.codePoint)} (${inv.name}) at position ${inv.index}; such text can hide instructions. Remove it and try again.`,
    };
  }
  const normal = text.normalize('NFKC');
  for (const p of [...CRON_THREAT_PATTERNS, GATEWAY_LIFECYCLE_PATTERN]) {
    const m = p.pattern.exec(normal);
    if (m) {
      return {
        ok: false,
        id: p.id,
        message: `Blocked: the ${what} matches threat pattern "${p.id}" (${p.description}): "${m[0].slice(0, 80)}".`,
      };
    }
  }
  return { ok: true };
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

/**
 * True when a shell command's text would stop or restart the daemon. Cron runs judge `terminal`
 * calls by the parsed rule `hermes-daemon-kill` (approvals/rules/self-daemon.ts); this text
 * pattern decides only lines the shell analyser cannot parse completely.
 */
export function isGatewayLifecycleCommand(command: string): boolean {
  return GATEWAY_LIFECYCLE_PATTERN.pattern.test(command.normalize('NFKC'));
}
