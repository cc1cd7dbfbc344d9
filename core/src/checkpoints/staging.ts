/**
 * Staging a working directory into a checkpoint index: the
 * per-project excludes (oversize files, a store inside the project), `git add -A` into the
 * project's or a temporary index, and `write-tree`. Split from `checkpoints.ts`.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { git, runGit, type ProjectPaths, type StorePaths } from './store.js';

/** Directories with more files than this are not snapshotted. */
export const CHECKPOINT_MAX_FILES = 50_000;
/** Files larger than this are left out of snapshots, bytes. */
export const CHECKPOINT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Splits NUL-separated git output (`-z`). */
export const splitZ = (s: string): string[] => s.split('\0').filter((x) => x !== '');

function escapeIgnore(rel: string): string {
  return `/${rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}`;
}

/** Writes the project's excludes file (oversize files, a store inside the project); returns the oversize paths. */
export async function prepareExcludes(
  paths: StorePaths,
  project: ProjectPaths,
): Promise<string[] | 'too many'> {
  const lines: string[] = [];
  const storeRel = relative(project.workdir, paths.base);
  if (storeRel === '' || (!storeRel.startsWith('..') && !isAbsolute(storeRel)))
    lines.push(`${escapeIgnore(storeRel.split(sep).join('/'))}/`);
  writeFileSync(project.excludes, lines.length ? `${lines.join('\n')}\n` : '');
  const listed = await git(
    paths.store,
    [
      '-c',
      `core.excludesFile=${project.excludes}`,
      'ls-files',
      '-z',
      '--cached',
      '--others',
      '--exclude-standard',
    ],
    { workdir: project.workdir, index: project.index },
  );
  const files = [...new Set(splitZ(listed))];
  if (files.length > CHECKPOINT_MAX_FILES) return 'too many';
  const oversize: string[] = [];
  for (const rel of files) {
    try {
      if (statSync(join(project.workdir, rel)).size > CHECKPOINT_MAX_FILE_BYTES) oversize.push(rel);
    } catch {
      /* vanished or unreadable */
    }
  }
  if (oversize.length) {
    lines.push(...oversize.map(escapeIgnore));
    writeFileSync(project.excludes, `${lines.join('\n')}\n`);
  }
  return oversize;
}

/** Stages the directory into `index` (the project's or a temporary one). */
async function stageAll(paths: StorePaths, project: ProjectPaths, index: string, oversize: string[]) {
  for (let i = 0; i < oversize.length; i += 200) {
    await git(
      paths.store,
      ['rm', '--cached', '-q', '--ignore-unmatch', '--', ...oversize.slice(i, i + 200)],
      {
        workdir: project.workdir,
        index,
      },
    );
  }
  await git(
    paths.store,
    ['-c', `core.excludesFile=${project.excludes}`, 'add', '-A', '--ignore-errors', '.'],
    {
      workdir: project.workdir,
      index,
    },
  );
}

/**
 * Stages the directory into `index` and writes its tree. When `write-tree` fails (the index names
 * an object that gc removed, e.g. a blob of a pruned checkpoint written back by a restore) the
 * index is dropped and the directory staged from scratch once.
 */
export async function stageAndWriteTree(
  paths: StorePaths,
  project: ProjectPaths,
  index: string,
  oversize: string[],
): Promise<string> {
  const write = () => runGit(paths.store, ['write-tree'], { workdir: project.workdir, index });
  await stageAll(paths, project, index, oversize);
  let r = await write();
  if (!r.ok) {
    rmSync(index, { force: true });
    await stageAll(paths, project, index, oversize);
    r = await write();
  }
  if (!r.ok) throw new Error(`git write-tree failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout.trim();
}
