/**
 * Sensitive files, by whatever writes them (`writes()` in argv.ts: redirects, `tee`, `cp`/`mv`/
 * `ln`/`install`/`rsync` destinations, `dd of=`, `sed -i`, `perl -i`, `truncate`, `touch`,
 * `chmod`, `rm`, `curl -o` …) and by any path form (`ctx.paths`: `~`, `$HOME`, relative to a
 * folder the line `cd`s into, globs, symlinks):
 * - system configuration and binaries (`/etc`, `/usr/bin`, `/boot`, units, cron spools; the list
 *   of the file tools' deny-list, tools/sensitive-paths.ts);
 * - credential and start-up files of any home folder (`~/.ssh`, `~/.bashrc`, `~/.aws` …), the
 *   home folder itself and its other dotfiles; `authorized_keys` anywhere; reading private keys;
 * - permissions: world-writable modes, recursive `chown`;
 * - archives extracted into `/`, a home folder, a dotfolder or a system folder.
 *
 * Targets: the absolute paths written (or read, or extracted into).
 */
import { literalWord } from '../shell/words.js';
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { HOME_DIRS, HOME_FILES, SYSTEM_DIRS } from '../../tools/sensitive-paths.js';
import { has, optionValue, parseArgs, pathTargets, programName, within, writes, type Write } from './argv.js';
import { protectedTarget } from './programs.js';
import type { CommandRule, RuleContext } from './types.js';

/** `/etc` as the rules name it (macOS keeps it under `/private`). */
const ETC = ['/etc', '/private/etc'];
/** The other system folders (the pseudo file systems are the disk rules' business). */
const OTHER_SYSTEM = SYSTEM_DIRS.filter((d) => !ETC.includes(d) && !/^\/(?:dev|proc|sys)$/.test(d));

/** The written paths of `cmd` with how they are written. */
function writtenPaths(cmd: SimpleCommand, ctx: RuleContext): { path: string; how: Write['how'] }[] {
  const out: { path: string; how: Write['how'] }[] = [];
  for (const w of writes(cmd)) for (const path of ctx.paths(w.word)) out.push({ path, how: w.how });
  return out;
}

/** A rule about writes into one of `dirs`, for the ways of writing in `hows`. */
function systemWriteRule(
  key: string,
  description: string,
  dirs: readonly string[],
  hows: Write['how'][],
): CommandRule {
  return {
    key,
    description,
    match(cmd, ctx) {
      const hit = writtenPaths(cmd, ctx).filter(
        (w) => hows.includes(w.how) && dirs.some((d) => within(d, w.path)),
      );
      return hit.length > 0 ? [...new Set(hit.map((w) => w.path))] : null;
    },
  };
}

const WRITE_ETC = systemWriteRule('write-etc', 'overwrite a system config file under /etc', ETC, [
  'redirect',
  'dd',
  'download',
  'modify',
]);
const TEE_ETC = systemWriteRule('tee-etc', 'write a system config file under /etc (tee)', ETC, ['tee']);
const COPY_INTO_ETC = systemWriteRule('copy-into-etc', 'copy, move or link a file into /etc', ETC, [
  'copy',
  'link',
  'move-source',
]);
const SED_INPLACE_ETC = systemWriteRule(
  'sed-inplace-etc',
  'in-place edit of a system config file (sed -i /etc)',
  ETC,
  ['edit'],
);
const COPY_INTO_SYSTEM_DIR = systemWriteRule(
  'copy-into-system-dir',
  'copy, install or write a file into a system folder (/usr/bin, /boot, systemd units, cron spools …)',
  OTHER_SYSTEM,
  ['redirect', 'tee', 'copy', 'link', 'move-source', 'dd', 'edit', 'download', 'modify'],
);

/** Home folders: the user's, root's, and any `/home/<u>` or `/Users/<u>`. */
function homesOf(path: string, ctx: RuleContext): string[] {
  const out = [ctx.userHome.replace(/\/+$/, ''), '/root', '/var/root'];
  const m = /^\/(?:home|Users)\/[^/]+/.exec(path);
  if (m) out.push(m[0]);
  return out;
}

/** The credential file or folder (`~/.ssh`, `~/.bashrc` …) `path` lies in, as `~/<name>`. */
function credentialOf(path: string, ctx: RuleContext): string | undefined {
  for (const home of homesOf(path, ctx)) {
    for (const f of HOME_FILES) if (path === `${home}/${f}`) return `~/${f}`;
    for (const d of HOME_DIRS) if (within(`${home}/${d}`, path)) return `~/${d}`;
  }
  return undefined;
}

/** True when `path` is a credential folder itself (`~/.ssh`, `/root/.aws` …). */
function isCredentialFolder(path: string, ctx: RuleContext): boolean {
  return homesOf(path, ctx).some((home) => HOME_DIRS.some((d) => path === `${home}/${d}`));
}

const CREDENTIAL_FILES: CommandRule = {
  key: 'credential-files',
  description: 'change SSH keys, shell start-up files or credential files of a home folder',
  match(cmd, ctx) {
    const hit = writtenPaths(cmd, ctx).filter((w) => credentialOf(w.path, ctx));
    return hit.length > 0 ? [...new Set(hit.map((w) => w.path))] : null;
  },
};

const TOUCH_HOME_DOTFILES: CommandRule = {
  key: 'touch-home-dotfiles',
  description: 'replace, move or overwrite the home folder or a shell/profile dotfile',
  match(cmd, ctx) {
    const home = ctx.userHome.replace(/\/+$/, '');
    const dotfile = (p: string): boolean =>
      p.startsWith(`${home}/.`) && !p.slice(home.length + 1).includes('/');
    const hit = writtenPaths(cmd, ctx).filter(
      (w) => (w.path === home || dotfile(w.path)) && !credentialOf(w.path, ctx),
    );
    return hit.length > 0 ? [...new Set(hit.map((w) => w.path))] : null;
  },
};

/** A project's secrets and settings files: `.env`, `.env.<stage>`, `config.yaml`/`config.yml`. */
const PROJECT_ENV_CONFIG_NAME = /^(?:\.env(?:\..+)?|config\.ya?ml)$/;

const PROJECT_ENV_CONFIG: CommandRule = {
  key: 'project-env-config',
  description: 'overwrite a project env/config file (.env, .env.*, config.yaml)',
  match(cmd, ctx) {
    // replacing the whole file (redirect, tee, copy, move, download); in-place edits are routine
    const hows: Write['how'][] = ['redirect', 'tee', 'copy', 'link', 'move-source', 'download', 'dd'];
    const hit = writtenPaths(cmd, ctx).filter(
      (w) => hows.includes(w.how) && PROJECT_ENV_CONFIG_NAME.test(w.path.split('/').pop() ?? ''),
    );
    return hit.length > 0 ? [...new Set(hit.map((w) => w.path))] : null;
  },
};

/** Every word of a command a path may hide in: arguments, `--opt=value` values, redirect targets. */
function allWords(cmd: SimpleCommand): ShellWord[] {
  const out = [...cmd.argv.slice(1)];
  for (const w of cmd.argv) {
    const eq = w.value.indexOf('=');
    if (w.value.startsWith('-') && eq > 0) out.push({ ...w, value: w.value.slice(eq + 1) });
  }
  for (const r of cmd.redirects) if (r.target) out.push(r.target);
  return out;
}

const SSH_AUTHORIZED_KEYS: CommandRule = {
  key: 'ssh-authorized-keys',
  description: 'touch an SSH authorized_keys file (who may log in to this machine)',
  match(cmd, ctx) {
    const hit = allWords(cmd).filter((w) => /authorized_keys2?\b/.test(w.value));
    return hit.length > 0 ? pathTargets(ctx, hit) : null;
  },
};

/** Private keys and stored credentials, as a path tail. */
const SECRET_FILE =
  /(?:^|\/)\.(?:ssh\/id_[\w-]+(?<!\.pub)$|aws\/credentials$|git-credentials$|netrc$|pgpass$|npmrc$|pypirc$|vault-token$|\w*_history$|gnupg(?:\/|$)|docker\/config\.json$|kube\/config$|config\/gh\/hosts\.yml$|config\/gcloud\/|azure\/|password-store\/)/;

/** Programs that only name, list or re-permission files: they do not read what a key file holds. */
const NOT_READING = new Set([
  'ls',
  'cd',
  'pushd',
  'stat',
  'test',
  '[',
  'du',
  'mkdir',
  'realpath',
  'readlink',
  'dirname',
  'basename',
  'tree',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'echo',
  'printf',
  'rm',
  'unlink',
  'shred',
]);

/** Programs that use a key file without printing it (`ssh -i key`, `ssh-add key`, `ssh-keygen -l`). */
function usesKeyQuietly(cmd: SimpleCommand, w: ShellWord): boolean {
  const name = programName(cmd);
  if (name === 'ssh-add') return true;
  if (name === 'ssh-keygen') return cmd.argv.some((x) => /^-[a-zA-Z]*[ly]/.test(x.value));
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'ssh-copy-id') {
    const i = cmd.argv.indexOf(w);
    return i > 0 && cmd.argv[i - 1]!.value === '-i';
  }
  return false;
}

const READ_CREDENTIALS: CommandRule = {
  key: 'read-credentials',
  description: 'read private keys or stored credentials (~/.ssh/id_*, ~/.aws/credentials, ~/.netrc …)',
  match(cmd, ctx) {
    if (NOT_READING.has(programName(cmd))) return null;
    const out = new Set<string>();
    for (const w of allWords(cmd)) {
      if (usesKeyQuietly(cmd, w)) continue;
      const found = ctx.paths(w);
      if (SECRET_FILE.test(w.value)) out.add(found[0] ?? w.value);
      // a secret file, or a whole key folder read at once (`tar czf x ~/.ssh`, `cp -r ~/.aws …`)
      for (const p of found) if (SECRET_FILE.test(p) || isCredentialFolder(p, ctx)) out.add(p);
    }
    return out.size > 0 ? [...out] : null;
  },
};

/** True for a world-writable mode: octal with the others' write bit, or `o+w` / `a=rw` … */
export function worldWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode.at(-1)) & 2) !== 0;
  return mode.split(',').some((clause) => {
    const m = /^([ugoa]*)((?:[-+=][rwxXst]*)+)$/.exec(clause);
    if (!m || !/[oa]/.test(m[1]!)) return false;
    return [...m[2]!.matchAll(/([-+=])([rwxXst]*)/g)].some((op) => op[1] !== '-' && op[2]!.includes('w'));
  });
}

const CHMOD_WORLD_WRITABLE: CommandRule = {
  key: 'chmod-world-writable',
  description: 'make files world-writable (chmod 777 / o+w)',
  match(cmd, ctx) {
    if (programName(cmd) !== 'chmod') return null;
    const p = parseArgs(cmd.argv, { long: ['reference'] });
    const [mode, ...files] = p.operands;
    return mode && worldWritable(mode.value) ? pathTargets(ctx, files) : null;
  },
};

/** `chown -R OWNER files`: the owner and files, when recursive. */
function chownRecursive(cmd: SimpleCommand): { owner: string; files: ShellWord[] } | undefined {
  if (programName(cmd) !== 'chown') return undefined;
  const p = parseArgs(cmd.argv, { long: ['reference', 'from'] });
  if (!has(p, 'R', 'recursive')) return undefined;
  const [owner, ...files] = p.operands;
  return { owner: owner?.value ?? '', files };
}

const CHOWN_ROOT_RECURSIVE: CommandRule = {
  key: 'chown-root-recursive',
  description: 'recursive chown to root',
  match(cmd, ctx) {
    const c = chownRecursive(cmd);
    return c && /^(?:root|0)(?:[:.]|$)/.test(c.owner) ? pathTargets(ctx, c.files) : null;
  },
};

const CHOWN_RECURSIVE: CommandRule = {
  key: 'chown-recursive',
  description: 'change ownership recursively (chown -R)',
  match(cmd, ctx) {
    const c = chownRecursive(cmd);
    return c && !/^(?:root|0)(?:[:.]|$)/.test(c.owner) ? pathTargets(ctx, c.files) : null;
  },
};

const CHMOD_SYSTEM_RECURSIVE: CommandRule = {
  key: 'chmod-system-recursive',
  description: 'change permissions or ownership of / , the home folder or a system folder, recursively',
  match(cmd, ctx) {
    const name = programName(cmd);
    if (!/^(?:chmod|chown|chgrp|chattr|setfacl)$/.test(name)) return null;
    const p = parseArgs(cmd.argv, { long: ['reference', 'from'], valued: name === 'setfacl' ? 'mMxX' : '' });
    if (!has(p, 'R', 'recursive')) return null;
    const files = name === 'setfacl' ? p.operands : p.operands.slice(has(p, 'reference') ? 0 : 1);
    const hit = new Set<string>();
    for (const w of files) {
      const found = protectedTarget(w, cmd, ctx);
      if (found) hit.add(found);
    }
    return hit.size > 0 ? [...hit] : null;
  },
};

/** Folders an archive must not be extracted into (below, unless noted). */
const EXTRACT_SYSTEM = [
  '/etc',
  '/private/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/boot',
  '/lib',
  '/lib64',
  '/root',
  '/var',
  '/opt',
  '/srv',
  '/System',
  '/Library',
];

/** The folder an extracting archiver writes into, or undefined when `cmd` does not extract. */
function extractDir(cmd: SimpleCommand): ShellWord | undefined | null {
  const name = programName(cmd);
  const words = cmd.argv.slice(1);
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') {
    const first = words[0]?.value ?? '';
    const extracting =
      /^-?[a-zA-Z]*x/.test(first) ||
      words.some((w) => w.value === '--extract' || w.value === '--get' || /^-[a-zA-Z]*x/.test(w.value));
    if (!extracting) return undefined;
    const p = parseArgs(cmd.argv, { valued: 'CfbHIKLNTVX', long: ['directory', 'file', 'exclude'] });
    return optionValue(p, 'C', 'directory') ?? null;
  }
  if (name === 'unzip') return optionValue(parseArgs(cmd.argv, { valued: 'dx' }), 'd') ?? null;
  if (/^7z[ar]?$/.test(name)) {
    if (!/^[xe]$/.test(words[0]?.value ?? '')) return undefined;
    const o = words.find((w) => w.value.startsWith('-o'));
    return o ? { ...o, value: o.value.slice(2) } : null;
  }
  if (name === 'cpio') {
    if (!words.some((w) => /^-[a-zA-Z]*i/.test(w.value) || w.value === '--extract')) return undefined;
    return (
      optionValue(parseArgs(cmd.argv, { valued: 'DFEHIM', long: ['directory'] }), 'D', 'directory') ?? null
    );
  }
  return undefined;
}

const EXTRACT_TO_SENSITIVE: CommandRule = {
  key: 'extract-to-sensitive',
  description: 'extract an archive into / , the home folder or a system folder',
  match(cmd, ctx) {
    const dir = extractDir(cmd);
    if (dir === undefined) return null;
    const word = dir ?? literalWord('.');
    const found = dir || !ctx.pathsAt ? ctx.paths(word) : ctx.pathsAt(word, cmd);
    const home = ctx.userHome.replace(/\/+$/, '');
    const bad = found.filter(
      (p) =>
        p === '/' ||
        p === home ||
        /^\.[^/]/.test(p.startsWith(`${home}/`) ? p.slice(home.length + 1) : '') ||
        EXTRACT_SYSTEM.some((d) => within(d, p)) ||
        (/^\/(?:home|Users)(?:\/|$)/.test(p) && !within(home, p)),
    );
    return bad.length > 0 ? [...new Set(bad)] : null;
  },
};

/** The rules about system, credential and home files, permissions and archive extraction. */
export const FILE_RULES: readonly CommandRule[] = [
  WRITE_ETC,
  TEE_ETC,
  COPY_INTO_ETC,
  SED_INPLACE_ETC,
  COPY_INTO_SYSTEM_DIR,
  CREDENTIAL_FILES,
  TOUCH_HOME_DOTFILES,
  PROJECT_ENV_CONFIG,
  SSH_AUTHORIZED_KEYS,
  READ_CREDENTIALS,
  CHMOD_WORLD_WRITABLE,
  CHOWN_ROOT_RECURSIVE,
  CHOWN_RECURSIVE,
  CHMOD_SYSTEM_RECURSIVE,
  EXTRACT_TO_SENSITIVE,
];
