/**
 * Removing installed packages, by any package manager: system ones (`apt`/`apt-get`/`aptitude`,
 * `dnf`/`yum`, `zypper`, `pacman -R`, `apk del`, `emerge --unmerge`, `dpkg -r`, `rpm -e`,
 * `brew uninstall`, `port uninstall`, `snap remove`, `flatpak uninstall`, `nix-env -e`,
 * `conda remove`), global language packages (`npm uninstall -g`, `pnpm remove -g`,
 * `yarn global remove`, `bun remove -g`, `composer global remove`) and tool installs (`pip
 * uninstall`, `python -m pip uninstall`, `uv pip uninstall`, `pipx uninstall`, `uv tool
 * uninstall`, `cargo uninstall`, `gem uninstall`, `rustup toolchain uninstall`, `asdf`/`mise
 * uninstall`). Installing is not flagged.
 *
 * `dependency-remove`: removing a project's own dependency (`npm uninstall lodash`, `npm r x`,
 * `yarn remove x`, `pnpm remove x`, `bun remove x`, also with `--prefix`/`--cwd`): it rewrites the
 * manifest and lockfile and deletes the installed package — asked, under a key of its own so an
 * approval of one never covers a global removal.
 *
 * Targets: `<manager>:<package>` (`apt:nginx`, `npm:typescript`, `pip:requests`).
 */
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { programName } from './argv.js';
import type { CommandRule } from './types.js';

/** A removal found: the manager and the packages it removes. */
interface Removal {
  manager: string;
  packages: ShellWord[];
}

/** Options that take a value, per manager (so the value is not read as a package). */
const VALUED: Record<string, RegExp> = {
  apt: /^(?:-o|-t|-c|--option|--target-release|--config-file)$/,
  dnf: /^(?:--repo|--enablerepo|--disablerepo|--releasever|--installroot|-c|--config)$/,
  pip: /^(?:-r|--requirement|--log|--proxy|--python|-t|--target|--prefix|--root)$/,
  npm: /^(?:--prefix|-w|--workspace|--location|--registry|--cwd|-C|--filter|--dir)$/,
};

/** The words after a verb that are package names (options and their values left out). */
function packagesAfter(words: readonly ShellWord[], valued?: RegExp): ShellWord[] {
  const out: ShellWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!.value;
    if (v.startsWith('-')) {
      if (valued?.test(v) && !v.includes('=')) i++;
      continue;
    }
    out.push(words[i]!);
  }
  return out;
}

/** Index of the first non-option word from `from` on (the verb), skipping valued options. */
function verbIndex(words: readonly ShellWord[], from: number, valued?: RegExp): number {
  for (let i = from; i < words.length; i++) {
    const v = words[i]!.value;
    if (!v.startsWith('-')) return i;
    if (valued?.test(v) && !v.includes('=')) i++;
  }
  return words.length;
}

/** `manager VERB packages…` when VERB matches. */
function verbRemoval(
  argv: readonly ShellWord[],
  manager: string,
  verbs: RegExp,
  valued?: RegExp,
  from = 1,
): Removal | undefined {
  const i = verbIndex(argv, from, valued);
  if (!verbs.test((argv[i]?.value ?? '').toLowerCase())) return undefined;
  return { manager, packages: packagesAfter(argv.slice(i + 1), valued) };
}

const isGlobal = (argv: readonly ShellWord[]): boolean =>
  argv.some((w) => w.value === '-g' || w.value === '--global' || w.value === '--location=global');

/** The removal `cmd` performs, if any. */
function removal(cmd: SimpleCommand): Removal | undefined {
  const argv = cmd.argv;
  const name = programName(cmd);
  const words = argv.slice(1).map((w) => w.value);
  switch (name) {
    case 'apt':
    case 'apt-get':
    case 'aptitude':
      return verbRemoval(argv, 'apt', /^(?:remove|purge|autoremove|autopurge)$/, VALUED.apt);
    case 'dnf':
    case 'yum':
    case 'microdnf':
    case 'tdnf':
      return verbRemoval(argv, 'dnf', /^(?:remove|erase|autoremove|rm)$/, VALUED.dnf);
    case 'zypper':
      return verbRemoval(argv, 'zypper', /^(?:remove|rm)$/);
    case 'pacman':
    case 'yay':
    case 'paru':
      return words.some((w) => /^-R/.test(w) || w === '--remove')
        ? { manager: 'pacman', packages: packagesAfter(argv.slice(1)) }
        : undefined;
    case 'apk':
      return verbRemoval(argv, 'apk', /^del$/);
    case 'emerge':
      return words.some((w) => /^(?:--unmerge|--depclean|-[a-zA-Z]*C|-c)$/.test(w))
        ? { manager: 'emerge', packages: packagesAfter(argv.slice(1)) }
        : undefined;
    case 'dpkg':
      return words.some((w) => /^(?:-r|-P|--remove|--purge)$/.test(w))
        ? { manager: 'dpkg', packages: packagesAfter(argv.slice(1)) }
        : undefined;
    case 'rpm':
      return words.some((w) => /^(?:-e|--erase|-[a-zA-Z]*e)$/.test(w))
        ? { manager: 'rpm', packages: packagesAfter(argv.slice(1)) }
        : undefined;
    case 'brew':
      return verbRemoval(argv, 'brew', /^(?:uninstall|remove|rm|autoremove|untap)$/);
    case 'port':
      return verbRemoval(argv, 'port', /^uninstall$/);
    case 'snap':
      return verbRemoval(argv, 'snap', /^remove$/);
    case 'flatpak':
      return verbRemoval(argv, 'flatpak', /^(?:uninstall|remove)$/);
    case 'nix-env':
      return words.some((w) => /^(?:-e|--uninstall)$/.test(w))
        ? { manager: 'nix', packages: packagesAfter(argv.slice(1)) }
        : undefined;
    case 'nix':
      return words[0] === 'profile' && words[1] === 'remove'
        ? { manager: 'nix', packages: packagesAfter(argv.slice(3)) }
        : undefined;
    case 'conda':
    case 'mamba':
    case 'micromamba':
      if (words[0] === 'env')
        return (
          verbRemoval(argv, 'conda-env', /^remove$/, undefined, 2) && {
            manager: 'conda-env',
            packages: argv.filter((w, i) => /^(?:-n|--name|-p|--prefix)$/.test(argv[i - 1]?.value ?? '')),
          }
        );
      return verbRemoval(argv, 'conda', /^(?:remove|uninstall)$/, /^(?:-n|--name|-p|--prefix)$/);
    case 'npm':
    case 'pnpm':
    case 'bun': {
      if (!isGlobal(argv)) return undefined;
      return verbRemoval(argv, name, /^(?:uninstall|un|unlink|remove|rm|r)$/, VALUED.npm);
    }
    case 'yarn':
      return words[0] === 'global' ? verbRemoval(argv, 'yarn', /^(?:remove)$/, undefined, 2) : undefined;
    case 'composer':
      return words[0] === 'global' ? verbRemoval(argv, 'composer', /^remove$/, undefined, 2) : undefined;
    case 'pipx':
      return verbRemoval(argv, 'pipx', /^(?:uninstall|uninstall-all|uninject)$/);
    case 'uv':
      if (words[0] === 'pip') return verbRemoval(argv, 'pip', /^uninstall$/, VALUED.pip, 2);
      if (words[0] === 'tool') return verbRemoval(argv, 'uv-tool', /^uninstall$/, undefined, 2);
      return undefined;
    case 'cargo':
      return verbRemoval(argv, 'cargo', /^uninstall$/);
    case 'gem':
      return verbRemoval(argv, 'gem', /^uninstall$/);
    case 'rustup':
      if (words[0] === 'toolchain')
        return verbRemoval(argv, 'rustup', /^(?:uninstall|remove)$/, undefined, 2);
      return verbRemoval(argv, 'rustup', /^(?:uninstall|self)$/);
    case 'asdf':
    case 'mise':
      return verbRemoval(argv, name, /^uninstall$/);
    case 'choco':
    case 'winget':
    case 'scoop':
      return verbRemoval(argv, name, /^(?:uninstall|remove)$/);
  }
  if (/^pip[0-9.]*$/.test(name)) return verbRemoval(argv, 'pip', /^uninstall$/, VALUED.pip);
  if (/^python[0-9.]*$/.test(name)) {
    const m = words.indexOf('-m');
    if (m >= 0 && /^pip[0-9.]*$/.test(words[m + 1] ?? ''))
      return verbRemoval(argv, 'pip', /^uninstall$/, VALUED.pip, m + 3);
  }
  return undefined;
}

const PACKAGE_REMOVE: CommandRule = {
  key: 'package-remove',
  description: 'uninstall installed packages (system, global or tool packages)',
  match(cmd) {
    const r = removal(cmd);
    if (!r) return null;
    const names = r.packages.map(
      (w) => `${r.manager}:${w.substitution || !w.literal ? `?${w.raw}` : w.value}`,
    );
    return names.length > 0 ? names : [`${r.manager}:?all`];
  },
};

/** A project dependency `cmd` removes (see the file comment), if any. */
function dependencyRemoval(cmd: SimpleCommand): Removal | undefined {
  const name = programName(cmd);
  if (!/^(?:npm|pnpm|bun|yarn)$/.test(name) || isGlobal(cmd.argv)) return undefined;
  if (name === 'yarn' && cmd.argv.some((w) => w.value === 'global')) return undefined;
  return verbRemoval(cmd.argv, name, /^(?:uninstall|un|unlink|remove|rm|r)$/, VALUED.npm);
}

const DEPENDENCY_REMOVE: CommandRule = {
  key: 'dependency-remove',
  description: "uninstall a project's dependency (npm/yarn/pnpm/bun remove)",
  match(cmd) {
    const r = dependencyRemoval(cmd);
    if (!r) return null;
    const names = r.packages.map(
      (w) => `${r.manager}:${w.substitution || !w.literal ? `?${w.raw}` : w.value}`,
    );
    return names.length > 0 ? names : [`${r.manager}:?all`];
  },
};

/** The package rules. */
export const PACKAGE_RULES: readonly CommandRule[] = [PACKAGE_REMOVE, DEPENDENCY_REMOVE];
