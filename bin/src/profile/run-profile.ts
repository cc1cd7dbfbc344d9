/**
 * What `hermes profile …` does. Loaded only when the command runs. The work
 * is in core/src/profiles/; this file parses nothing, formats output and turns a refused
 * operation (ProfileError) into `CliExit(1, message)`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import {
  createAlias,
  listAliases,
  removeAlias,
  createProfile,
  type CreateMode,
  deleteProfile,
  ProfileError,
  exportProfile,
  importProfile,
  existingProfile,
  renameProfile,
  listProfiles,
  showProfile,
  useProfile,
} from '@hermes/core/profiles';
import { hermesCommand as commandForm } from '../command-form.js';
import { CliExit, type CliContext } from '../context.js';
import { formatProfileDetails, formatProfileTable } from './format.js';
import { confirm } from '../confirm.js';

/** Parsed arguments of one `hermes profile` action. */
export type ProfileArgs =
  | { action: 'list'; json: boolean }
  | { action: 'show'; json: boolean; name: string }
  | { action: 'create'; name: string; clone: boolean; cloneAll: boolean; from?: string; description?: string }
  | { action: 'use'; name: string }
  | { action: 'rename'; from: string; to: string }
  | { action: 'delete'; name: string; yes: boolean }
  | { action: 'export'; name: string; output?: string }
  | { action: 'import'; file: string; name?: string }
  | { action: 'alias'; name: string; as?: string; remove: boolean };

/** The process environment pieces this runner reads (tests pass their own). */
export interface ProfileEnv {
  /** The user's home folder, for `~/.local/bin` wrappers (`$HOME`, else the OS's). */
  homeDir: string;
  PATH: string;
  /** Whether stdin is a terminal (delete asks for confirmation there). */
  interactive: boolean;
  write(text: string): void;
}

const processEnv = (): ProfileEnv => ({
  homeDir: process.env.HOME || homedir(),
  PATH: process.env.PATH ?? '',
  interactive: Boolean(process.stdin.isTTY),
  write: (t) => void process.stdout.write(t),
});

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** `hermes` when it is on PATH, else the absolute path of the running executable. */
function hermesCommand(pathEnv: string): string {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue;
    try {
      const p = join(dir, 'hermes');
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return 'hermes';
      }
    } catch {
      /* not here */
    }
  }
  return resolve(process.argv[1] ?? 'hermes');
}

/**
 * Runs one `hermes profile` action in the root of `ctx.home`.
 * @throws CliExit(1) with the core's message for a refused operation.
 */
export async function runProfile(
  ctx: CliContext,
  args: ProfileArgs,
  env: ProfileEnv = processEnv(),
): Promise<void> {
  const home = ctx.home;
  const out = env.write;
  try {
    switch (args.action) {
      case 'list': {
        const profiles = listProfiles(home);
        out(args.json ? json(profiles) : formatProfileTable(profiles));
        return;
      }
      case 'show': {
        const details = showProfile(home, args.name);
        const aliases = [...listAliases(env.homeDir)].filter(([, p]) => p === details.name).map(([a]) => a);
        out(args.json ? json({ ...details, aliases }) : formatProfileDetails(details, aliases));
        return;
      }
      case 'create': {
        if (args.clone && args.cloneAll) throw new CliExit(1, 'give --clone or --clone-all, not both');
        const mode: CreateMode = args.cloneAll ? 'clone-all' : args.clone || args.from ? 'clone' : 'blank';
        const made = createProfile(home, args.name, {
          mode,
          ...(args.from ? { from: args.from } : {}),
          ...(args.description !== undefined ? { description: args.description } : {}),
        });
        const shared = commandForm(); // as the user can type it: ./bin/hermes without `npm run link`
        const what =
          mode === 'blank'
            ? 'blank'
            : `${mode} of "${made.from}": ${made.copied.length} file${made.copied.length === 1 ? '' : 's'}`;
        out(
          `Created profile "${made.home.profile}" at ${made.home.dir} (${what})\n` +
            `Use it with: ${shared} -p ${made.home.profile} …  or make it sticky: ${shared} profile use ${made.home.profile}\n`,
        );
        return;
      }
      case 'use': {
        const name = useProfile(home, args.name);
        out(
          name === 'default'
            ? `Using the default profile (${home.activeProfileFile} removed)\n`
            : `Using profile "${name}" (written to ${home.activeProfileFile})\n`,
        );
        return;
      }
      case 'rename': {
        const r = renameProfile(home, args.from, args.to, { homeDir: env.homeDir });
        out(`Renamed profile "${r.from}" to "${r.to}" (${r.home.dir})\n`);
        if (r.stickyUpdated) out(`The sticky profile is now "${r.to}"\n`);
        for (const a of r.aliasesUpdated) out(`Updated alias ${a}\n`);
        return;
      }
      case 'delete': {
        const target = existingProfile(home, args.name);
        if (!args.yes) {
          if (!env.interactive) {
            throw new CliExit(1, `not deleting profile "${target.profile}" without confirmation; pass --yes`);
          }
          if (
            !(await confirm(`Delete profile "${target.profile}" and everything in ${target.dir}? [y/N] `))
          ) {
            throw new CliExit(1, `profile "${target.profile}" not deleted`);
          }
        }
        const d = deleteProfile(home, args.name, { homeDir: env.homeDir });
        out(`Deleted profile "${d.name}" (${d.path})\n`);
        if (d.stickyCleared) out('The sticky profile is now "default"\n');
        for (const a of d.aliasesRemoved) out(`Removed alias ${a}\n`);
        return;
      }
      case 'export': {
        const r = await exportProfile(home, args.name, args.output);
        out(
          `Exported profile "${r.name}" to ${r.file} (${r.files.length} files; .env, auth.json, ` +
            'state.db, history and runtime files left out)\n',
        );
        for (const s of r.skipped) out(`Skipped ${s} (not a regular file)\n`);
        return;
      }
      case 'import': {
        const r = importProfile(home, args.file, args.name ? { name: args.name } : {});
        out(`Imported profile "${r.name}" from ${resolve(args.file)} into ${r.home.dir}\n`);
        if (r.disabled.length) {
          out('Switched off until you trust the archive:\n');
          for (const line of r.disabled) out(`  - ${line}\n`);
        }
        return;
      }
      case 'alias': {
        const opts = { homeDir: env.homeDir, pathEnv: env.PATH, ...(args.as ? { alias: args.as } : {}) };
        if (args.remove) {
          out(`Removed alias ${removeAlias(existingProfile(home, args.name).profile, opts)}\n`);
          return;
        }
        const a = createAlias(home, args.name, { ...opts, hermesCommand: hermesCommand(env.PATH) });
        out(`${a.replaced ? 'Updated' : 'Created'} ${a.path}: runs hermes -p ${a.profile}\n`);
        if (!a.onPath) {
          out(`Note: ${join(env.homeDir, '.local', 'bin')} is not on PATH; add it to use "${a.alias}"\n`);
        }
        return;
      }
    }
  } catch (err) {
    if (err instanceof ProfileError) throw new CliExit(1, err.message);
    throw err;
  }
}
