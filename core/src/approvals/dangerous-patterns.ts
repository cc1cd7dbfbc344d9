/**
 * Dangerous shell commands as text patterns: the fallback of detect.ts. The rules (rules/*.ts)
 * judge the commands a line runs, as the shell analyser lists them; this table runs on the whole
 * text only when the grammar cannot be loaded or the line has parse errors (and, while
 * `SELF_RULES` is empty, its patterns about Hermes's own home on every line). It sees inside
 * quotes, so it errs towards asking; detect.ts refuses its catastrophic keys.
 *
 * A table of patterns, each with a stable `key` (the class; the rules use the same keys) and a
 * human `description` (what the user is shown). The behaviour follows the original agent's
 * `DANGEROUS_PATTERNS` (tools/approval_detection.py):
 * recursive and root deletes, disk formatting and raw device writes, fork bombs, remote scripts
 * piped to a shell, world-writable permissions, destructive SQL and git, service and power
 * control, and inline code execution (`bash -c`, `python -c`, `node -e` …) whose payload the
 * other patterns cannot see through.
 *
 * Matching is deliberately broad (an extra question is cheap; a missed `rm -rf` is not) and runs
 * on a normalised command: ANSI escapes and NUL bytes removed, Unicode compatibility forms folded
 * (NFKC, so full-width letters match), backslash line continuations joined, shell escapes and
 * empty quotes removed (`r\m`, `r''m` → `rm`), `$IFS` read as a space, runs of spaces and tabs
 * collapsed, and case ignored. A second variant with every quote character removed catches
 * `"rm" -rf "/"`.
 */
import stripAnsi from 'strip-ansi';
import { contextPatterns, PATH_PATTERNS, type PathContext } from './dangerous-paths.js';

/** One dangerous-command pattern. Every `pattern` carries the `i` flag (case is ignored). */
export interface DangerousPattern {
  /** Stable id, kebab-case; stored in `command_allowlist` by `always`. Never renamed. */
  key: string;
  pattern: RegExp;
  /** Short human description shown in the approval prompt. */
  description: string;
}

/** A pattern that matched a command. */
export interface DangerousMatch {
  key: string;
  description: string;
}

/**
 * Start of a command: start of text, a separator (`;`, `&`, `|`, newline, `(`, backtick, `$(`),
 * optionally behind `sudo`/`env`/`exec`/`nohup`/`time`/`nice` wrappers. Keeps `echo reboot`
 * from counting as a reboot.
 */
const CMD = String.raw`(?:^|[;&|\n(\x60]|\$\()[ \t]*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:env|exec|nohup|time|nice|command)\s+(?:\S+=\S*\s+)*)*`;
/** A run of text within one simple command (no separator crossed). */
const SEG = String.raw`[^;&|\n]*`;
/** Raw block devices: SCSI/SATA/virtio/Xen/NVMe/eMMC disks, md/dm/loop/nbd, macOS disks. */
const BLOCK_DEV = String.raw`/dev/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd)[a-z0-9]*|r?disk[0-9][a-z0-9]*|mapper/\S+|disk/by-\S+)`;
/** Where a command word may start: start of text, whitespace, a separator or an opening quote. */
const WORD_START = String.raw`(?:^|(?<=[\s;&|(\x60"']))`;
/** An optional folder prefix of a command word (`/usr/bin/`), matched in linear time. */
const PATH_PREFIX = String.raw`(?:[\w.~+-]*/)*`;
/**
 * Text within one simple command up to and including the first `marker`, matched atomically
 * (a lookahead plus a back-reference) so a long command with many markers cannot make the regex
 * backtrack quadratically. Uses capture group 1: at most one per pattern.
 */
const upTo = (marker: string, char = String.raw`[^;&|\n]`): string => String.raw`(?=(${char}*?${marker}))\1`;
/** Shells that run text handed to them. */
const SHELLS = String.raw`(?:ba|z|k|da|fi|a)?sh`;

const rx = (source: string): RegExp => new RegExp(source, 'i');

/** The table. At least 30 entries; keys are unique (checked by the tests). */
export const DANGEROUS_PATTERNS: readonly DangerousPattern[] = [
  // --- deleting files -------------------------------------------------------------------------
  {
    key: 'recursive-delete',
    pattern: rx(String.raw`\brm\b${SEG}\s(?:-[a-z]*r[a-z]*|--recursive)\b`),
    description: 'recursive delete (rm -r)',
  },
  {
    key: 'delete-root-path',
    pattern: rx(String.raw`\brm\s+(?:-\S+\s+)*(?:--\s+)?["']?(?:/|~/?|\$\{?home\}?/?)(?:[\s"'*]|$)`),
    description: 'delete at the root of the file system or home folder',
  },
  {
    key: 'delete-absolute-path',
    pattern: rx(String.raw`\brm\s+(?:-\S+\s+)*(?:--\s+)?["']?/`),
    description: 'delete by absolute path',
  },
  {
    key: 'sudo-rm',
    pattern: rx(String.raw`\bsudo\s+(?:-\S+\s+)*(?:\S*/)?rm\b`),
    description: 'delete as root (sudo rm)',
  },
  {
    key: 'find-delete',
    pattern: rx(String.raw`\bfind\b${SEG}\s-delete\b`),
    description: 'find -delete',
  },
  {
    key: 'find-exec-rm',
    pattern: rx(String.raw`\bfind\b${SEG}\s-exec(?:dir)?\s+(?:\S*/)?rm\b`),
    description: 'find -exec rm',
  },
  {
    key: 'xargs-rm',
    pattern: rx(String.raw`\bxargs\b${SEG}\s(?:\S*/)?rm\b`),
    description: 'xargs rm (delete a computed list of files)',
  },
  // --- disks and devices ----------------------------------------------------------------------
  {
    key: 'mkfs',
    pattern: rx(String.raw`\b(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkswap\s+${SEG}${BLOCK_DEV})(?=\s|$|[;&|)])`),
    description: 'format a file system (mkfs)',
  },
  {
    key: 'dd-to-device',
    pattern: rx(String.raw`\bdd\b${SEG}\bof=["']?/dev/(?!null\b|zero\b|stdout\b|stderr\b|tty\b)`),
    description: 'dd writing to a device',
  },
  {
    key: 'raw-disk-read',
    pattern: rx(
      String.raw`\b(?:dd\b${SEG}\bif=|(?:cat|head|tail|xxd|hexdump|od|strings|pv|gzip|xz|zstd|base64)\b${SEG}\s|<\s*)["']?${BLOCK_DEV}(?=["'\s;&|)]|$)`,
    ),
    description: "read a raw disk (every file on it, other users' and deleted ones included)",
  },
  {
    key: 'write-block-device',
    pattern: rx(String.raw`>\s*["']?${BLOCK_DEV}`),
    description: 'redirect output onto a block device',
  },
  {
    key: 'wipe-device',
    pattern: rx(String.raw`\b(?:shred|wipefs|blkdiscard|sgdisk|fdisk|parted)\b${SEG}\s["']?${BLOCK_DEV}`),
    description: 'wipe or repartition a disk',
  },
  // --- system files ---------------------------------------------------------------------------
  {
    key: 'write-etc',
    pattern: rx(String.raw`>>?\s*["']?(?:/private)?/etc/`),
    description: 'overwrite a system config file under /etc',
  },
  {
    key: 'tee-etc',
    pattern: rx(String.raw`\btee\b${SEG}\s["']?(?:/private)?/etc/`),
    description: 'write a system config file under /etc (tee)',
  },
  {
    key: 'copy-into-etc',
    pattern: rx(
      String.raw`\b(?:cp|mv|install|ln)\b${SEG}\s["']?(?:/private)?/etc/[^\s;&|]*["']?\s*(?:$|[;&|\n])`,
    ),
    description: 'copy or move a file into /etc',
  },
  {
    key: 'sed-inplace-etc',
    pattern: rx(String.raw`\bsed\b${SEG}\s(?:-[a-z]*i\S*|--in-place\S*)${SEG}\s["']?(?:/private)?/etc/`),
    description: 'in-place edit of a system config file (sed -i /etc)',
  },
  {
    key: 'write-credentials',
    pattern: rx(
      String.raw`(?:>>?\s*|\btee\s+(?:-\S+\s+)*|\bmv\b${SEG}\s)["']?(?:~|\$\{?home\}?)/\.(?:ssh/|bashrc\b|zshrc\b|profile\b|bash_profile\b|zprofile\b|netrc\b|npmrc\b|pypirc\b|pgpass\b)|\bcp\b${SEG}\s["']?(?:~|\$\{?home\}?)/\.(?:ssh/|bashrc\b|zshrc\b|profile\b|bash_profile\b|zprofile\b|netrc\b|npmrc\b|pypirc\b|pgpass\b)[^\s;&|)<>"']*["']?\s*(?=$|[;&|\n)])`,
    ),
    description: 'overwrite SSH keys, shell start-up or credential files',
  },
  {
    key: 'write-hermes-config',
    pattern: rx(
      String.raw`(?:>>?\s*|\btee\s+(?:-\S+\s+)*|\b(?:mv|sed|perl|ln)\b${SEG}\s)["']?[^\s;&|]*\.hermes/[^\s;&|]*(?:config\.yaml|\.env)\b|\bcp\b${SEG}\s["']?[^\s;&|]*\.hermes/[^\s;&|]*(?:config\.yaml|\.env)["']?\s*(?=$|[;&|\n)])`,
    ),
    description: "change Hermes's own config.yaml or .env (approval settings, keys)",
  },
  // --- permissions and ownership ----------------------------------------------------------------
  {
    key: 'chmod-world-writable',
    pattern: rx(
      String.raw`\bchmod\b${SEG}\s(?:[0-7]?[0-7]{2}[2367]|[ugo]*[oa][ugo]*[+=][rwxXst]*w[rwxXst]*)(?=[\s,]|$)`,
    ),
    description: 'make files world-writable (chmod 777 / o+w)',
  },
  {
    key: 'chown-root-recursive',
    pattern: rx(
      String.raw`\bchown\b(?=${SEG}\s(?:-[a-z]*r[a-z]*|--recursive)\b)(?=${SEG}\sroot(?:[:.\s]|$))`,
    ),
    description: 'recursive chown to root',
  },
  // --- processes and the system -----------------------------------------------------------------
  {
    key: 'fork-bomb',
    pattern: rx(String.raw`(?<![\w:.])([\w:.]+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}`),
    description: 'fork bomb',
  },
  {
    key: 'kill-all-processes',
    pattern: rx(String.raw`\bkill\s+(?:-\S+\s+)*-1\s*(?:$|[;&|\n])`),
    description: 'kill every process (kill -9 -1)',
  },
  {
    key: 'force-kill-by-name',
    pattern: rx(
      String.raw`\b(?:pkill|killall)\s+(?:[^\s;&|]+\s+)*?(?:-9|-kill|-sigkill|-s\s+(?:9|kill|sigkill))\b`,
    ),
    description: 'force-kill processes by name (pkill/killall -9)',
  },
  {
    key: 'service-stop',
    pattern: rx(
      String.raw`\bsystemctl\s+(?:-\S+\s+)*(?:stop|disable|mask|kill|isolate)\b|\bservice\s+\S+\s+stop\b`,
    ),
    description: 'stop or disable a system service',
  },
  {
    key: 'shutdown-reboot',
    pattern: rx(
      String.raw`${CMD}(?:shutdown|reboot|halt|poweroff)\b|\bsystemctl\s+(?:-\S+\s+)*(?:poweroff|reboot|halt|kexec)\b|${CMD}(?:tel)?init\s+[06]\b`,
    ),
    description: 'shut down or reboot the machine',
  },
  {
    key: 'crontab-remove',
    pattern: rx(String.raw`\bcrontab\s+(?:-\S+\s+)*-[a-z]*r\b`),
    description: "remove the user's crontab (crontab -r)",
  },
  {
    key: 'firewall-flush',
    pattern: rx(String.raw`\b(?:ip6?tables|nft)\s+(?:-\S+\s+)*(?:-F|--flush|flush\s+ruleset)\b`),
    description: 'flush firewall rules',
  },
  // --- remote code and inline execution -------------------------------------------------------
  {
    key: 'curl-pipe-shell',
    pattern: rx(
      String.raw`\b(?:curl|wget|fetch)\b[^\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:${SHELLS}|python[0-9.]*|perl|ruby|node)\b`,
    ),
    description: 'pipe a downloaded script into a shell (curl | sh)',
  },
  {
    key: 'shell-process-substitution',
    pattern: rx(String.raw`\b(?:${SHELLS}|source|\.)\s+<\s*\(\s*(?:curl|wget)\b`),
    description: 'run a downloaded script through process substitution',
  },
  {
    key: 'eval-remote',
    pattern: rx(String.raw`(?:\beval|\bsource|(?:^|\s)\.)\s+["']?(?:\$\(|\x60)\s*(?:curl|wget)\b`),
    description: 'eval the output of a download',
  },
  {
    key: 'decode-pipe-shell',
    pattern: rx(
      String.raw`\b(?:base64|base32|xxd|openssl)\b${upTo(String.raw`\s(?:-d|-D|--decode|-r)\b`, String.raw`[^\n]`)}[^\n]*\|\s*${PATH_PREFIX}${SHELLS}\b`,
    ),
    description: 'pipe decoded text into a shell (obfuscated command)',
  },
  {
    key: 'shell-inline-exec',
    pattern: rx(String.raw`${WORD_START}${PATH_PREFIX}${SHELLS}\s+(?:-[a-z]+\s+)*-[a-z]*c[a-z]*(?=\s|$)`),
    description: 'run an inline shell script (bash -c / sh -c)',
  },
  {
    key: 'shell-heredoc',
    pattern: rx(String.raw`${WORD_START}${PATH_PREFIX}${SHELLS}\s+(?:-\S*\s+)*<<`),
    description: 'run a shell script from a here-document',
  },
  {
    key: 'script-inline-exec',
    pattern: rx(
      String.raw`\b(?:python[0-9.]*|pypy3?)\s+(?:-[a-z]+\s+)*-[a-z]*c|\b(?:node|nodejs|bun|deno)\s+(?:[^\s;&|]+\s+)*?(?:-e|-p|--eval|--print|eval)(?=[\s=]|$)|\b(?:perl|ruby)\s+(?:-\S+\s+)*-[a-z]*e\b|\bphp\s+(?:-\S+\s+)*-r\b|\b(?:python[0-9.]*|pypy3?|node|nodejs|bun|deno|perl|ruby|php)\s+(?:-\S*\s+)*<<`,
    ),
    description: 'run inline code the guard cannot inspect (python -c / node -e / perl -e / python3 - <<EOF)',
  },
  {
    key: 'decode-then-run',
    pattern: rx(
      String.raw`\b(?:base64|base32|xxd|openssl)\b${upTo(String.raw`\s(?:-d|-D|--decode|-r)\b`, String.raw`[^\n]`)}[^\n]*>[\s\S]*(?:;|&&|\|\||\n)[ \t]*(?:sudo\s+)?(?:${PATH_PREFIX}(?:${SHELLS}|python[0-9.]*|perl|ruby|node)|source|\.|chmod)\s`,
    ),
    description: 'decode text into a file and then run it (obfuscated script)',
  },
  {
    key: 'source-file',
    pattern: rx(String.raw`${CMD}(?:source|\.)\s+["']?[^\s;&|]`),
    description: 'run a file in the current shell (source / .), which the guard cannot inspect',
  },
  {
    key: 'crontab-install',
    pattern: rx(String.raw`\bcrontab\s+(?:-u\s+\S+\s+)?(?:-(?=\s|$|[;&|)])|(?!-)[^\s;&|])`),
    description: 'replace the crontab with a file or piped text (crontab FILE / crontab -)',
  },
  {
    key: 'service-enable',
    pattern: rx(
      String.raw`\bsystemctl\s+(?:-\S+\s+)*(?:enable|start|restart|reenable|link|preset|edit|set-environment|import-environment)\b|\blaunchctl\s+(?:-\S+\s+)*(?:load|bootstrap|submit|enable|kickstart|setenv)\b`,
    ),
    description: 'start, enable or install a service (systemctl enable / start, launchctl load)',
  },
  {
    key: 'extract-to-sensitive',
    pattern: rx(
      String.raw`\b(?:tar|bsdtar|unzip|7z|cpio)\b${SEG}\s(?:-C\s*|--directory[=\s]|-d\s*|-o)["']?(?:/|~/?|\$\{?HOME\}?/?|/(?:etc|usr|bin|sbin|boot|lib|lib64|root|home|var|opt|Users)\b[^\s;&|]*|(?:~|\$\{?HOME\}?)/\.[^\s;&|]*)["']?(?=\s|$|[;&|)])`,
    ),
    description: 'extract an archive into / , the home folder or a system folder',
  },
  {
    key: 'rimraf-outside',
    pattern: rx(String.raw`\brimraf\b${SEG}\s(?:--\s+)?["']?(?:/|~|\$\{?HOME\b|\.\.(?:/|\s|$))`),
    description: 'delete recursively outside the project (rimraf /, ~ or ..)',
  },
  ...PATH_PATTERNS,
  // --- databases --------------------------------------------------------------------------------
  {
    key: 'sql-drop',
    pattern: rx(String.raw`\bdrop\s+(?:table|database|schema)\b`),
    description: 'SQL DROP TABLE / DATABASE',
  },
  {
    key: 'sql-delete-without-where',
    pattern: rx(String.raw`\bdelete\s+from\b(?![^;\n]*\bwhere\b)`),
    description: 'SQL DELETE without WHERE (deletes every row)',
  },
  {
    key: 'sql-truncate',
    pattern: rx(String.raw`\btruncate\s+table\b|\btruncate\s+(?!-)[\w."\x60\[\]]+\s*(?:;|$)`),
    description: 'SQL TRUNCATE',
  },
  // --- git --------------------------------------------------------------------------------------
  {
    key: 'git-force-push',
    pattern: rx(
      String.raw`\bgit\b${upTo(String.raw`\spush\b`)}${SEG}\s(?:--force\S*|-[a-z]*f[a-z]*|\+\S+)(?=\s|$|[;&|])`,
    ),
    description: 'git push --force (rewrites remote history)',
  },
  {
    key: 'git-push-delete',
    pattern: rx(String.raw`\bgit\b${upTo(String.raw`\spush\b`)}${SEG}\s(?:--delete|-d|:\S+)(?=\s|$|[;&|])`),
    description: 'git push --delete (deletes a remote branch or tag)',
  },
  {
    key: 'git-reset-hard',
    pattern: rx(String.raw`\bgit\b${upTo(String.raw`\sreset\b`)}${SEG}\s--h(?:a(?:rd?)?)?\b`),
    description: 'git reset --hard (discards uncommitted changes)',
  },
  {
    key: 'git-clean-force',
    pattern: rx(String.raw`\bgit\b${upTo(String.raw`\sclean\b`)}${SEG}\s(?:-[a-z]*f[a-z]*|--force)\b`),
    description: 'git clean -f (deletes untracked files)',
  },
  {
    key: 'git-discard-changes',
    pattern: rx(
      String.raw`\bgit\b${upTo(String.raw`\s(?:checkout|restore)\b`)}\s+(?:(?!--staged)-\S+\s+)*(?:--\s+)?\.(?:\s*$|\s*[;&|])`,
    ),
    description: 'git checkout/restore . (discards all uncommitted changes)',
  },
  // --- indirection the other patterns cannot see through ---------------------------------------
  {
    key: 'pipe-into-shell',
    pattern: rx(
      String.raw`\|\s*(?:sudo\s+(?:-\S+\s+)*)?${PATH_PREFIX}(?:${SHELLS}|python[0-9.]*|perl|ruby|node|php)\s*(?:-[a-z]*\s*)*(?:$|[;&|\n)])`,
    ),
    description: 'pipe generated text into a shell or interpreter',
  },
  {
    key: 'variable-as-command',
    pattern: rx(
      String.raw`(?:^|[;&|\n(\x60]|\$\()[ \t]*(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*["']?\$\{?[A-Za-z_@*!#?0-9]`,
    ),
    description: 'run a command whose name comes from a variable (hides what runs)',
  },
  {
    key: 'eval-command',
    pattern: rx(String.raw`${CMD}eval\b`),
    description: 'eval a constructed command',
  },
  {
    key: 'download-then-run',
    pattern: rx(
      String.raw`\b(?:curl|wget)\b[^\n]*(?:;|&&|\n)[ \t]*(?:sudo\s+)?(?:${PATH_PREFIX}(?:${SHELLS}|python[0-9.]*|perl|ruby|node)\s+\S|(?:\.|source)\s+\S|chmod\s+\S*x)`,
    ),
    description: 'download a file and then run it',
  },
  {
    key: 'destroy-file-contents',
    pattern: rx(String.raw`${CMD}(?:shred|wipe|srm)\b`),
    description: 'destroy file contents beyond recovery (shred)',
  },
  {
    key: 'chown-recursive',
    pattern: rx(String.raw`${CMD}chown\s+(?:-\S+\s+)*-[a-z]*R`),
    description: 'change ownership recursively (chown -R)',
  },
  {
    key: 'touch-home-dotfiles',
    pattern: rx(
      String.raw`(?:>>?\s*|\b(?:ln|mv|cp|tee|sed|dd|install|rsync|unlink|rm|truncate)\b${SEG}\s)["']?(?:~|\$HOME|\$\{HOME\})/?(?:\.[\w.-]+)?(?:\s|["']|$)`,
    ),
    description: 'replace, move or overwrite the home folder or a shell/profile dotfile',
  },
  {
    key: 'touch-hermes-home',
    pattern: rx(String.raw`\$\{?HERMES_HOME\b|/\.hermes(?:/|\b)`),
    description: "touch Hermes's own home (config.yaml, .env keys, sessions, cron jobs)",
  },
  {
    key: 'write-agent-config-files',
    pattern: rx(
      String.raw`(?:>>?|\btee\b|\bsed\b${SEG}\s-i|\b(?:mv|cp|rm|dd|install|rsync|unlink|ln|truncate|chmod|yq|perl)\b)${SEG}(?:^|[\s/"'=])(?:config\.yaml|\.env|jobs\.json|state\.db)(?:\s|["']|$|[;&|])`,
    ),
    description: 'change a config.yaml, .env, jobs.json or state.db file (settings, keys, jobs, sessions)',
  },
  // --- packages and containers --------------------------------------------------------------------
  {
    key: 'package-remove',
    pattern: rx(
      String.raw`${CMD}(?:apt(?:-get)?|yum|dnf|zypper|pacman|brew)\s+(?:-\S+\s+)*(?:remove|purge|autoremove|erase|uninstall|-r[a-z]*)\b`,
    ),
    description: 'uninstall system packages',
  },
  {
    key: 'container-prune',
    pattern: rx(
      String.raw`\b(?:docker|podman)\s+(?:system|volume|image|container|network|builder)\s+prune\b`,
    ),
    description: 'delete containers, images or volumes (docker prune)',
  },
  {
    key: 'container-lifecycle',
    pattern: rx(
      String.raw`\b(?:(?:docker|podman)(?:\s+compose)?|docker-compose|podman-compose)\s+(?:[^\s|;&]+\s+){0,6}?(?:stop|kill|restart|down)\b`,
    ),
    description: 'stop, kill or restart running containers (docker stop/kill/restart, compose down)',
  },
];

/**
 * Normalises a command for matching (see the file comment): strips ANSI escapes and NUL bytes,
 * folds NFKC, joins line continuations, removes shell escapes and empty quotes, reads `$IFS` as
 * a space, collapses horizontal whitespace, keeps newlines (they separate commands).
 */
export function normalizeCommand(command: string): string {
  let s = stripAnsi(command).replace(/\0/g, '').normalize('NFKC');
  s = s.replace(/\r\n?/g, '\n');
  s = s.replace(/\\\n/g, '');
  s = s.replace(/\\([^\n])/g, '$1');
  s = s.replace(/''|""/g, '');
  s = s.replace(/\$\{IFS[^}]*\}|\$IFS\b/g, ' ');
  s = s.replace(/[^\S\n]+/g, ' ');
  return s.trim();
}

/** Where this process's folders are, for the path-aware patterns (dangerous-paths.ts). */
export type DetectOptions = PathContext;

/**
 * Finds the dangerous patterns a shell command's text matches (the fallback of `detectCommand`).
 * @param opts the running Hermes root and the user's home: with them, writes to the home's
 *   credential files by absolute path and any mention of the root's path are flagged too
 *   (`contextPatterns`); without, only the generic forms (`~/.ssh`, `/root/.ssh`, `.hermes`).
 * @returns one entry per matching pattern key, in table order (context patterns after);
 *   empty for a safe command; only `unchecked-long-line` for a line over `TABLE_MAX_CHARS`.
 */
export function detectDangerousCommand(command: string, opts: DetectOptions = {}): DangerousMatch[] {
  const normalized = normalizeCommand(command);
  const variants = [normalized, normalized.replace(/["']/g, '')];
  const found: DangerousMatch[] = [];
  // a few patterns cost time growing with the square of the length on degenerate text (long runs
  // of `>>` or blanks); past this length the table asks instead of reading (fail towards asking)
  if (normalized.length > TABLE_MAX_CHARS) {
    found.push({
      key: 'unchecked-long-line',
      description: `a command line too long for the pattern check (over ${TABLE_MAX_CHARS} characters)`,
    });
    return found;
  }
  for (const p of [...DANGEROUS_PATTERNS, ...contextPatterns(opts)]) {
    if (found.some((f) => f.key === p.key)) continue;
    if (variants.some((v) => p.pattern.test(v))) found.push({ key: p.key, description: p.description });
  }
  return found;
}

/** Longest normalised line the pattern table reads (see detectDangerousCommand). */
export const TABLE_MAX_CHARS = 8_192;

/** The pattern with this key, if any. */
export function dangerousPatternByKey(key: string): DangerousPattern | undefined {
  return DANGEROUS_PATTERNS.find((p) => p.key === key);
}
