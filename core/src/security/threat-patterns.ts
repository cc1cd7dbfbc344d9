/**
 * The threat-pattern table of the content scanner. Each pattern has a stable id (named in
 * refusals), a threat class and the scopes it applies to:
 * - `context`: project context files (AGENTS.md …) — text a repository author wrote;
 * - `cron`: cron prompts, which run unattended with the full tool set;
 * - `strict`: memory entries and skills being saved — text that becomes standing instructions
 *   and that the user can rewrite when refused.
 * Patterns anchor on attack behaviour, not bossy English ("you must", "never" are common in
 * legitimate AGENTS.md files); filler between key words is bounded to keep matching linear.
 */

/** Where scanned text will be used. */
export type ScanScope = 'context' | 'cron' | 'strict';

/** Named threat classes; a refusal names the class of the first finding. */
export type ThreatClass =
  | 'instruction_override'
  | 'role_hijack'
  | 'deception'
  | 'hidden_markup'
  | 'promptware'
  | 'secret_exfiltration'
  | 'persistence'
  | 'destructive_command'
  | 'daemon_lifecycle'
  | 'invisible_unicode';

/** One text pattern of the table. */
export interface ThreatPattern {
  /** Stable id, named in refusals. */
  id: string;
  threatClass: ThreatClass;
  description: string;
  pattern: RegExp;
  scopes: readonly ScanScope[];
}

const ALL: readonly ScanScope[] = ['context', 'cron', 'strict'];
const UNATTENDED: readonly ScanScope[] = ['cron', 'strict'];
const STRICT: readonly ScanScope[] = ['strict'];
/** Bounded filler between key words. */
const F = String.raw`(?:[\w'’-]+[\s,]+){0,8}`;
const MODIFY = String.raw`\b(?:update|modify|edit|write|change|append|add\s+to|overwrite)\s+[^\n]{0,200}`;
/** What a C2 tell talks to: a URL, a host name, or a controller word. */
const C2_PEER = String.raw`(?:https?:\/\/|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b|(?:c2|controller|command\s+server|orchestrator|mothership|node|network|swarm)\b)`;

/** The table (the exfiltration rule and invisible characters live in their own modules). */
export const THREAT_PATTERNS: readonly ThreatPattern[] = [
  // instruction override
  {
    id: 'prompt_injection',
    threatClass: 'instruction_override',
    description: 'tells the agent to ignore its earlier instructions',
    pattern:
      /\b(?:ignore|forget|override)\s+(?:\w+\s+){0,4}(?:previous|prior|above|earlier|preceding|all|any|your)\s+(?:\w+\s+){0,3}(?:instructions?|rules|prompts?|directions|guidelines)\b/i,
    scopes: ALL,
  },
  {
    id: 'forget_context',
    threatClass: 'instruction_override',
    description: 'tells the agent to forget or disregard what it was told before',
    pattern:
      /\b(?:forget|disregard|discard|drop|abandon)\s+(?:\w+\s+){0,3}(?:everything|all|anything)?\s*(?:you\s+(?:were|have\s+been)\s+(?:told|given|instructed)|(?:prior|previous|earlier|preceding|above)\s+(?:\w+\s+){0,2}(?:directives?|instructions?|messages?|context|orders?|commands?))/i,
    scopes: ALL,
  },
  {
    id: 'disregard_rules',
    threatClass: 'instruction_override',
    description: 'tells the agent to disregard its rules',
    pattern: /\bdisregard\s+(?:\w+\s+){0,8}(?:instructions?|rules|guidelines|policies|prompt)\b/i,
    scopes: ALL,
  },
  {
    id: 'sys_prompt_override',
    threatClass: 'instruction_override',
    description: 'claims to override or replace the system prompt',
    pattern:
      /\bsystem\s+prompt\s+(?:override|overwrite|replacement)\b|\b(?:override|replace|overwrite|ignore)\s+(?:the\s+|your\s+)?system\s+prompt\b|\bnew\s+system\s+prompt\s*:/i,
    scopes: ALL,
  },
  {
    id: 'chat_template_tokens',
    threatClass: 'instruction_override',
    description: 'contains chat-template control tokens that fake a system or assistant turn',
    pattern:
      /<\|(?:im_start|im_end|system|assistant|user|endoftext|eot_id|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>|^\s*(?:system|assistant)\s*:\s*(?:you\s+(?:are|must|will|have|should|may)|ignore|disregard|forget|new\s+(?:rules|instructions)|from\s+now\s+on)\b/im,
    scopes: ALL,
  },
  {
    id: 'bypass_restrictions',
    threatClass: 'instruction_override',
    description: 'tells the agent to act as if it had no restrictions',
    pattern: new RegExp(
      String.raw`\bact\s+as\s+(?:if|though)\s+${F}you\s+${F}(?:have\s+no|don'?t\s+have)\s+${F}(?:restrictions|limits|rules)`,
      'i',
    ),
    scopes: ALL,
  },
  {
    id: 'remove_filters',
    threatClass: 'instruction_override',
    description: 'tells the agent to answer without its safety limits',
    pattern: new RegExp(
      String.raw`\b(?:respond|answer|reply)\s+without\s+${F}(?:restrictions|limitations|filters|safety)`,
      'i',
    ),
    scopes: ALL,
  },
  {
    id: 'translate_execute',
    threatClass: 'instruction_override',
    description: 'hides a command behind "translate … and execute"',
    pattern: /\btranslate\s+[^\n]{0,200}\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:execute|run|eval)\b/i,
    scopes: ALL,
  },
  // deception
  {
    id: 'deception_hide',
    threatClass: 'deception',
    description: 'tells the agent to hide something from the user',
    pattern:
      /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|show|mention\s+(?:this\s+)?to|let)\s+(?:\w+\s+){0,2}(?:the\s+)?user\b|\bhide\s+(?:\w+\s+){0,4}from\s+(?:the\s+)?user\b|\bwithout\s+(?:telling|informing)\s+(?:the\s+)?user\b/i,
    scopes: ALL,
  },
  // hidden markup
  {
    id: 'html_comment_injection',
    threatClass: 'hidden_markup',
    description: 'hides instructions in an HTML comment',
    pattern:
      // a word of its own: not a tool directive such as `prettier-ignore`
      /<!--[^>]{0,512}(?<![A-Za-z-])(?:ignore|override|system|secret|hidden)(?![A-Za-z-])[^>]{0,512}-->/i,
    scopes: ALL,
  },
  {
    id: 'hidden_div',
    threatClass: 'hidden_markup',
    description: 'hides text in an invisible HTML element',
    pattern:
      /<\s*(?:div|span|p)\s+style\s*=\s*["'][^>]{0,512}(?:display\s*:\s*none|visibility\s*:\s*hidden)/i,
    scopes: ALL,
  },
  // role hijack
  {
    id: 'role_hijack',
    threatClass: 'role_hijack',
    description: 'tells the agent it is now someone else',
    pattern: new RegExp(
      String.raw`\byou\s+are[\s,]+${F}now\s+(?:a|an|the|no\s+longer)\s+|\byou\s+are\s+no\s+longer\s+(?:a|an|the|hermes|bound|restricted)\b|\bfrom\s+now\s+on,?\s+you\s+are\s+(?:a|an|the|no\s+longer)\s+`,
      'i',
    ),
    scopes: ALL,
  },
  {
    id: 'role_pretend',
    threatClass: 'role_hijack',
    description: 'tells the agent to pretend to be someone else',
    pattern: new RegExp(String.raw`\bpretend\s+${F}(?:you\s+are|to\s+be)\s+`, 'i'),
    scopes: ALL,
  },
  {
    id: 'fake_update',
    threatClass: 'role_hijack',
    description: 'claims the agent was updated to new behaviour',
    pattern: new RegExp(
      String.raw`\byou\s+have\s+been\s+${F}(?:updated|upgraded|patched|reprogrammed)\s+to\b`,
      'i',
    ),
    scopes: ALL,
  },
  {
    id: 'identity_override',
    threatClass: 'role_hijack',
    description: 'renames the agent',
    pattern: /\bname\s+yourself\s+\w+|\byour\s+new\s+(?:name|identity|persona)\s+is\b/i,
    scopes: ALL,
  },
  // promptware: worm / command-and-control vocabulary in files the agent reads as instructions
  ...promptware(),
  // secret exfiltration (curl/wget/URL rule: exfiltration.ts)
  {
    id: 'read_secrets',
    threatClass: 'secret_exfiltration',
    description: 'reads .env or credential files',
    pattern:
      /\bcat\s+[^\n]{0,200}(?:\.env\b(?!\.(?:example|sample|template|dist|defaults?)\b)|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials)/i,
    scopes: ['context', 'strict'],
  },
  {
    id: 'read_secrets',
    threatClass: 'secret_exfiltration',
    description: 'reads .env or credential files',
    pattern:
      /\b(?:cat|less|more|head|tail|type|print|read|show|dump|open|base64|xxd|strings)\b[^\n]*(?:(?:^|[\s/'"=])\.env\b(?!\.(?:example|sample|template|dist|defaults?)\b)|\bcredentials?\b|\.netrc\b|\.pgpass\b|\.aws\/|\.ssh\/id_|\.git-credentials\b)/i,
    scopes: ['cron'],
  },
  {
    id: 'leak_system_prompt',
    threatClass: 'secret_exfiltration',
    description: 'asks for the system prompt to be printed',
    pattern: new RegExp(String.raw`\b(?:output|print|reveal|repeat)\s+${F}(?:system|initial)\s+prompt`, 'i'),
    scopes: ALL,
  },
  {
    id: 'send_to_url',
    threatClass: 'secret_exfiltration',
    description: 'sends data to a URL',
    pattern: /\b(?:send|post|upload|transmit|exfiltrate)\s+[^\n]{0,200}\s+(?:to|at)\s+https?:\/\//i,
    scopes: STRICT,
  },
  {
    id: 'context_exfil',
    threatClass: 'secret_exfiltration',
    description: 'asks for the conversation to be shared',
    pattern: new RegExp(
      String.raw`\b(?:include|output|print|share|send|forward)\s+${F}(?:conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)\b`,
      'i',
    ),
    scopes: STRICT,
  },
  {
    id: 'hermes_env',
    threatClass: 'secret_exfiltration',
    description: "names the agent's own secrets file",
    pattern: /(?:\$HOME|~)\/\.hermes\/\.env\b/i,
    scopes: STRICT,
  },
  {
    id: 'hardcoded_secret',
    threatClass: 'secret_exfiltration',
    description: 'holds a literal API key or password',
    pattern: /\b(?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][A-Za-z0-9+/=_-]{20,}/i,
    scopes: STRICT,
  },
  // persistence
  {
    id: 'ssh_backdoor',
    threatClass: 'persistence',
    description: 'touches ~/.ssh/authorized_keys',
    pattern: /authorized_keys/i,
    scopes: UNATTENDED,
  },
  {
    id: 'ssh_access',
    threatClass: 'persistence',
    description: 'points into ~/.ssh',
    pattern: /(?:\$HOME|~)\/\.ssh\b/i,
    scopes: STRICT,
  },
  {
    id: 'shell_rc_mod',
    threatClass: 'persistence',
    description: 'writes to a shell start-up file',
    pattern:
      /(?:>>?|\btee\s+(?:-a\s+)?|\b(?:append|add|write|insert|put)\b[^\n]{0,120}\b(?:to|into|in)\s+)\s*["']?(?:(?:~|\$HOME|\/root|\/home\/\w+)\/)?\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile|login|cshrc|tcshrc|config\/fish\/config\.fish)\b/i,
    scopes: UNATTENDED,
  },
  {
    id: 'crontab_mod',
    threatClass: 'persistence',
    description: 'installs a crontab entry',
    pattern:
      /\bcrontab\s+(?:-[a-z]*[er][a-z]*\b|-(?:\s|$)|\S+\.(?:txt|cron|tab)\b|[~/$]\S*)|\|\s*crontab\b|\/etc\/cron(?:\.|tab)|\/var\/spool\/cron/im,
    scopes: UNATTENDED,
  },
  {
    id: 'sudoers_mod',
    threatClass: 'persistence',
    description: 'touches sudoers',
    pattern: /\/etc\/sudoers|\bvisudo\b|\bsudoers\b/i,
    scopes: UNATTENDED,
  },
  {
    id: 'agent_config_mod',
    threatClass: 'persistence',
    description: "rewrites an agent's instruction file",
    pattern: new RegExp(
      String.raw`${MODIFY}(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules|\.hermes\.md)`,
      'i',
    ),
    scopes: STRICT,
  },
  {
    id: 'hermes_config_mod',
    threatClass: 'persistence',
    description: "rewrites Hermes's own config or identity",
    pattern: new RegExp(String.raw`${MODIFY}\.hermes\/(?:config\.yaml|SOUL\.md|memories)`, 'i'),
    scopes: STRICT,
  },
  // destructive
  {
    id: 'destructive_root_rm',
    threatClass: 'destructive_command',
    description: 'deletes from the root of the file system (rm -rf /)',
    pattern:
      /\brm\s+(?:-[a-z]*\s+)*-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?["']?\/(?:\*|\s|["']|$)|--no-preserve-root/i,
    scopes: UNATTENDED,
  },
  // the daemon that runs cron
  {
    id: 'gateway_lifecycle',
    threatClass: 'daemon_lifecycle',
    description: 'stops or restarts the Hermes daemon that runs this job',
    pattern:
      /\bhermes\s+(?:(?:-p|--profile)\s+\S+\s+)?gateway\s+(?:stop|restart|uninstall|kill)\b|\b(?:systemctl|service)\s+(?:--user\s+)?(?:stop|restart|kill|disable)\s+\S*hermes|\b(?:pkill|killall)\b[^\n]*\b(?:hermes|tui-gateway)\b|\bkill\b[^\n]*(?:tui-gateway(?:\.json|\.lock)?|\$\(\s*(?:pgrep|pidof)[^)]*hermes)/i,
    scopes: ['cron'],
  },
];

/**
 * Promptware (Brainworm-style agent worms, C2 tasking), for context files, memory and skills —
 * not cron prompts, where "send a heartbeat to …" is ordinary monitoring. Anchored on C2
 * vocabulary and anti-forensic instructions, not on bossy English.
 */
function promptware(): ThreatPattern[] {
  const p = (id: string, description: string, pattern: RegExp): ThreatPattern => ({
    id,
    threatClass: 'promptware',
    description,
    pattern,
    scopes: ['context', 'strict'],
  });
  return [
    p('c2_node_registration', 'asks the agent to register as a node', /\bregister\s+(?:as\s+)?a?\s*node\b/i),
    p(
      'c2_heartbeat',
      'asks the agent to beacon to a server',
      // to a host, URL or controller — not "check in with Sarah", "a heartbeat to the load balancer"
      new RegExp(String.raw`\b(?:heartbeat|beacon|check[\s-]?in)\s+(?:to|with)\s+(?:the\s+)?${C2_PEER}`, 'i'),
    ),
    p(
      'c2_task_pull',
      'asks the agent to pull tasking',
      // "tasking", or tasks from a controller — not "pull tasks from Jira"
      /\bpull\s+(?:down\s+)?(?:new\s+)?tasking\b|\bpull\s+(?:down\s+)?(?:new\s+)?tasks?\s+from\s+(?:the\s+)?(?:https?:\/\/|c2|controller|command\s+server|orchestrator|server|node|network|swarm)\b/i,
    ),
    p('c2_network_connect', 'asks the agent to join a network', /\bconnect\s+to\s+the\s+network\b/i),
    p(
      'forced_action',
      'obliges the agent to register, connect, report or beacon',
      // to a node, network or controller — not "you must register a plugin", "report hours"
      new RegExp(
        String.raw`\byou\s+must\s+(?:\w+\s+){0,3}(?:register\s+as\b|beacon\b|(?:connect|report)(?:\s+back|\s+home|\s+in)?\s+(?:to|with)\s+(?:the\s+)?${C2_PEER})`,
        'i',
      ),
    ),
    p(
      'anti_forensic_oneliner',
      'tells the agent to leave no scripts behind',
      /\bonly\s+use\s+one[\s-]?liners?\b/i,
    ),
    p(
      'anti_forensic_disk',
      'tells the agent never to write files to disk',
      new RegExp(String.raw`\bnever\s+${F}(?:create|write)\s+${F}(?:script|file)\s+${F}disk`, 'i'),
    ),
    p(
      'env_var_unset_agent',
      "unsets the agent runtime's variables",
      /\bunset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*/i,
    ),
    p(
      'known_c2_framework',
      'names an offensive command-and-control framework',
      // sliver, havoc and mythic are English words: only next to a C2 word
      /\b(?:cobalt\s*strike|metasploit|brainworm)\b|\b(?:sliver|havoc|mythic)\s+(?:c2|implant|beacon|agent|listener|payload|teamserver|server|framework)s?\b/i,
    ),
    p(
      'c2_explicit',
      'talks about a C2 server or channel',
      /\bc2\s+(?:server|channel|infrastructure|beacon)\b/i,
    ),
    p('c2_explicit_long', 'talks about command and control', /\bcommand\s+and\s+control\b/i),
  ];
}
