/**
 * Line rules: running a file the same line wrote or made executable. The guard never saw what the
 * file holds, so running it is as opaque as `curl | sh`:
 * - `download-then-run`: a file a downloader saved (`curl -o f`, `wget`, `curl … > f`,
 *   `curl … | tee f`) then run (`sh f`, `./f`, `python3 f`, `source f`) or made executable;
 * - `decode-then-run`: the same for decoded text (`base64 -d > f; bash f`);
 * - `run-written-script`: any other file written in the line and then run (`cat > x.sh <<EOF …;
 *   bash x.sh`, `echo … > f; . f`);
 * - `run-new-executable`: a file made executable in the line and then run (`chmod +x ./x.sh &&
 *   ./x.sh`, `chmod 755 f; ./f`, `chmod u+x`).
 *
 * Targets: the file's paths (and the URLs for a download).
 */
import { basename } from 'node:path';
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { CURL_SPEC, parseArgs, programName, valueTargets, WGET_SPEC, within, writes } from './argv.js';
import { codeSource, isDecoder, isDownloader, upstream } from './programs.js';
import type { LineMatch, LineRule, RuleContext } from './types.js';

/** The file `cmd` runs: its program path (`./x.sh`), an interpreter's script file, `source`'s file. */
export function runFile(cmd: SimpleCommand): ShellWord | undefined {
  const name = programName(cmd);
  if (name === 'source' || name === '.') return cmd.argv[1];
  const src = codeSource(cmd);
  if (src) return src.kind === 'file' ? src.word : undefined;
  const first = cmd.argv[0];
  return first && first.value.includes('/') ? first : undefined;
}

/** True for a mode that adds execute permission (`+x`, `u+x`, `a=rx`, `755`, `0700`). */
export function addsExecute(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return [...mode.slice(-3)].some((d) => Number(d) % 2 === 1);
  return mode.split(',').some((clause) => /^[ugoa]*(?:[-+=][rwxXst]*)*[+=][rwst]*[xX]/.test(clause));
}

type Kind = 'download' | 'decode' | 'other';

/** What the line writes and makes executable, path by path, with the command that did it. */
interface Prepared {
  path: string;
  by: SimpleCommand;
  kind: Kind | 'chmod';
  /** A folder (`git clone`): running any file below it counts. */
  folder?: boolean;
}

/** What `git clone URL [DIR]` fetches and the folder it creates (`-C` applied), as words. */
function cloneOf(cmd: SimpleCommand): { url: ShellWord; dir: ShellWord } | undefined {
  if (programName(cmd) !== 'git') return undefined;
  const words = cmd.argv.slice(1);
  let at = 0;
  let base = '';
  while (at < words.length && words[at]!.value.startsWith('-')) {
    if (words[at]!.value === '-C') base = `${words[at + 1]?.value ?? ''}/`;
    at += /^-[cC]$/.test(words[at]!.value) ? 2 : 1;
  }
  if (words[at]?.value !== 'clone') return undefined;
  const ops = parseArgs([cmd.argv[0]!, ...words.slice(at + 1)], {
    valued: 'objuc',
    long: [
      'origin',
      'branch',
      'depth',
      'reference',
      'upload-pack',
      'template',
      'config',
      'separate-git-dir',
      'filter',
    ],
  }).operands;
  const [url, dir] = ops;
  if (!url) return undefined;
  const name =
    dir?.value ??
    url.value
      .replace(/\/+$/, '')
      .split(/[/:]/)
      .pop()
      ?.replace(/\.git$/, '') ??
    '';
  if (!name) return undefined;
  const value = base && !name.startsWith('/') ? `${base}${name}` : name;
  return { url, dir: { ...(dir ?? url), value, raw: value } };
}

function prepared(ctx: RuleContext): Prepared[] {
  const out: Prepared[] = [];
  for (const cmd of ctx.analysis.commands) {
    if (programName(cmd) === 'chmod') {
      for (const f of madeExecutable(cmd))
        for (const path of ctx.paths(f)) out.push({ path, by: cmd, kind: 'chmod' });
      continue;
    }
    const clone = cloneOf(cmd);
    if (clone) {
      for (const path of ctx.paths(clone.dir)) out.push({ path, by: cmd, kind: 'download', folder: true });
      continue;
    }
    const ws = writes(cmd).filter((w) =>
      ['redirect', 'tee', 'copy', 'download', 'dd', 'edit', 'link'].includes(w.how),
    );
    if (ws.length === 0) continue;
    const up = upstream([cmd], ctx.analysis);
    const kind: Kind = up.some(isDownloader) ? 'download' : up.some(isDecoder) ? 'decode' : 'other';
    for (const w of ws) for (const path of ctx.paths(w.word)) out.push({ path, by: cmd, kind });
  }
  return out;
}

/** The URLs of the downloads behind `cmd`. */
function urlsBehind(cmd: SimpleCommand, ctx: RuleContext): string[] {
  const urls: ShellWord[] = [];
  const clone = cloneOf(cmd);
  if (clone) return valueTargets([clone.url]);
  for (const c of upstream([cmd], ctx.analysis).filter(isDownloader)) {
    const spec = programName(c) === 'wget' ? WGET_SPEC : CURL_SPEC;
    urls.push(...parseArgs(c.argv, spec).operands);
  }
  return valueTargets(urls);
}

/** The files `cmd` makes executable (`chmod +x f`). */
function madeExecutable(cmd: SimpleCommand): ShellWord[] {
  if (programName(cmd) !== 'chmod') return [];
  const [mode, ...files] = parseArgs(cmd.argv, { long: ['reference'] }).operands;
  return mode && addsExecute(mode.value) ? files : [];
}

/**
 * Commands that run a file the line prepared earlier in one of `kinds`; with `chmodToo`, making
 * such a file executable counts as running it.
 */
function runsOf(ctx: RuleContext, kinds: readonly (Kind | 'chmod')[], chmodToo = false): LineMatch[] {
  const prep = prepared(ctx).filter((p) => kinds.includes(p.kind));
  if (prep.length === 0) return [];
  const out: LineMatch[] = [];
  for (const cmd of ctx.analysis.commands) {
    const file = runFile(cmd);
    const words = [...(file ? [file] : []), ...(chmodToo ? madeExecutable(cmd) : [])];
    const targets = new Set<string>();
    for (const word of words) {
      const paths = ctx.paths(word);
      for (const p of prep) {
        if (p.by.index >= cmd.index) continue;
        // a file made executable elsewhere and run by the same name (`chmod +x /tmp/x.sh &&
        // ./x.sh`): the line may have moved or copied it there, so the name is enough
        const sameName = p.kind === 'chmod' && basename(p.path) === basename(word.value);
        if (!paths.includes(p.path) && !(p.folder && paths.some((x) => within(p.path, x))) && !sameName)
          continue;
        targets.add(p.path);
        if (p.kind === 'download') for (const u of urlsBehind(p.by, ctx)) targets.add(u);
      }
    }
    if (targets.size > 0) out.push({ command: cmd, targets: [...targets] });
  }
  return out;
}

const DOWNLOAD_THEN_RUN: LineRule = {
  key: 'download-then-run',
  description: 'download a file and then run it',
  matchLine: (ctx) => runsOf(ctx, ['download'], true),
};

const DECODE_THEN_RUN: LineRule = {
  key: 'decode-then-run',
  description: 'decode text into a file and then run it (obfuscated script)',
  matchLine: (ctx) => runsOf(ctx, ['decode'], true),
};

const RUN_WRITTEN_SCRIPT: LineRule = {
  key: 'run-written-script',
  description: 'write a script and run it in the same command line (the guard never sees its contents)',
  matchLine: (ctx) => runsOf(ctx, ['other']),
};

const RUN_NEW_EXECUTABLE: LineRule = {
  key: 'run-new-executable',
  description: 'make a file executable and run it (chmod +x f && ./f)',
  matchLine: (ctx) => runsOf(ctx, ['chmod']),
};

/** The line rules. */
export const LINE_RULES: readonly LineRule[] = [
  DOWNLOAD_THEN_RUN,
  DECODE_THEN_RUN,
  RUN_WRITTEN_SCRIPT,
  RUN_NEW_EXECUTABLE,
];
