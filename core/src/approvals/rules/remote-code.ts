/**
 * Running downloaded (or decoded) text as code, by any shell form:
 * - piped: `curl … | sh`, `wget -O- … | sudo bash`, `curl … | tee x | python3 -`;
 * - process substitution: `bash <(curl …)`, `bash < <(curl -s …)`, `source <(curl …)`,
 *   `. <(wget -qO- …)`, `python3 <(curl …)`;
 * - command substitution: `eval "$(curl …)"`, `sh -c "$(wget -qO- …)"`, `python3 -c "$(curl …)"`,
 *   `bash <<< "$(curl …)"`, `$(curl …)` as a command;
 * - decoded text piped into a shell: `echo … | base64 -d | sh`.
 * Downloading to a file and running it is the line rules' business (run-written.ts).
 *
 * Targets: the URLs (or hosts) downloaded, as written; the decoder for decoded text.
 */
import type { SimpleCommand } from '../shell/analyze.js';
import { CURL_SPEC, parseArgs, programName, valueTargets, WGET_SPEC } from './argv.js';
import { childrenOf, isDecoder, isDownloader, isInterpreter, runsStdin, upstream } from './programs.js';
import type { CommandRule, RuleContext } from './types.js';

/** The URLs or hosts a downloader fetches. */
function downloadTargets(cmds: readonly SimpleCommand[]): string[] {
  const out = new Set<string>();
  for (const c of cmds) {
    if (!isDownloader(c)) continue;
    const name = programName(c);
    const spec = name === 'curl' ? CURL_SPEC : name === 'wget' ? WGET_SPEC : { valued: 'pioeFlwWsq' };
    const ops = parseArgs(c.argv, spec).operands;
    const urls = ops.filter((w) => /:\/\//.test(w.value));
    for (const t of valueTargets(urls.length > 0 ? urls : ops)) out.add(t);
  }
  return out.size > 0 ? [...out] : ['?download'];
}

/** The downloaders among everything that flows from `cmds`. */
function downloadsIn(cmds: readonly SimpleCommand[], ctx: RuleContext): SimpleCommand[] {
  return upstream(cmds, ctx.analysis).filter(isDownloader);
}

/** Process substitutions of `cmd` (`<(…)` words) and of its `<` redirect. */
function processSubstitutions(cmd: SimpleCommand, ctx: RuleContext): SimpleCommand[] {
  const out = childrenOf(cmd, ctx.analysis).filter((c) => c.via.at(-1) === 'process-substitution');
  for (const r of cmd.redirects) if (r.op === '<' && r.commands) out.push(...r.commands);
  return out;
}

/** Command substitutions of `cmd` (`$(…)`, backticks) and of its here-strings. */
function commandSubstitutions(cmd: SimpleCommand, ctx: RuleContext): SimpleCommand[] {
  const out = childrenOf(cmd, ctx.analysis).filter((c) => c.via.at(-1) === 'substitution');
  for (const r of cmd.redirects) if (r.op === '<<<' && r.commands) out.push(...r.commands);
  return out;
}

/** True when `cmd` runs code: a shell or interpreter, `source`/`.`, `eval`. */
const runsCode = (cmd: SimpleCommand): boolean => {
  const name = programName(cmd);
  return isInterpreter(name) || name === 'source' || name === '.' || name === 'eval';
};

const CURL_PIPE_SHELL: CommandRule = {
  key: 'curl-pipe-shell',
  description: 'pipe a downloaded script into a shell (curl | sh)',
  match(cmd, ctx) {
    if (cmd.pipedFrom.length === 0 || !runsStdin(cmd)) return null;
    const downloads = downloadsIn(cmd.pipedFrom, ctx);
    return downloads.length > 0 ? downloadTargets(downloads) : null;
  },
};

const SHELL_PROCESS_SUBSTITUTION: CommandRule = {
  key: 'shell-process-substitution',
  description: 'run a downloaded script through process substitution (bash <(curl …))',
  match(cmd, ctx) {
    if (!runsCode(cmd)) return null;
    const downloads = downloadsIn(processSubstitutions(cmd, ctx), ctx);
    return downloads.length > 0 ? downloadTargets(downloads) : null;
  },
};

const EVAL_REMOTE: CommandRule = {
  key: 'eval-remote',
  description: 'run the output of a download as code (eval "$(curl …)", sh -c "$(wget …)")',
  match(cmd, ctx) {
    const computed = cmd.argv[0]?.substitution === true;
    if (!computed && !runsCode(cmd)) return null;
    const downloads = downloadsIn(commandSubstitutions(cmd, ctx), ctx);
    return downloads.length > 0 ? downloadTargets(downloads) : null;
  },
};

const DECODE_PIPE_SHELL: CommandRule = {
  key: 'decode-pipe-shell',
  description: 'pipe decoded text into a shell (obfuscated command)',
  match(cmd, ctx) {
    if (cmd.pipedFrom.length === 0 || !runsStdin(cmd)) return null;
    const up = upstream(cmd.pipedFrom, ctx.analysis);
    if (up.some(isDownloader)) return null;
    const decoders = up.filter(isDecoder);
    return decoders.length > 0 ? [...new Set(decoders.map(programName))] : null;
  },
};

/** The rules about running downloaded or decoded text. */
export const REMOTE_CODE_RULES: readonly CommandRule[] = [
  CURL_PIPE_SHELL,
  SHELL_PROCESS_SUBSTITUTION,
  EVAL_REMOTE,
  DECODE_PIPE_SHELL,
];
