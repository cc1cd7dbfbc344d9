#!/usr/bin/env node
/**
 * `npm run link`: puts the `hermes` command (and `hermes-status-line`, the tmux status line without
 * Node) on PATH without sudo: symlinks to this checkout's bin/ in `$XDG_BIN_HOME` or
 * `~/.local/bin` (created when missing). An existing file of that name there that is not a symlink
 * is left alone (exit 1). Says whether that folder is on PATH.
 */
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const binDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin');
const target = join(binDir, 'hermes');
const dir = process.env.XDG_BIN_HOME || join(homedir(), '.local', 'bin');
const link = join(dir, 'hermes');
mkdirSync(dir, { recursive: true });
for (const name of ['hermes', 'hermes-status-line']) {
  const to = join(binDir, name);
  const at = join(dir, name);
  const existing = lstatSync(at, { throwIfNoEntry: false });
  if (existing && !existing.isSymbolicLink()) {
    process.stderr.write(`hermes: ${at} exists and is not a link; left as it is\n`);
    process.exit(1);
  }
  const already = existing !== undefined && readlinkSync(at) === to;
  if (existing && !already) unlinkSync(at);
  if (!already) symlinkSync(to, at);
}
const onPath = (process.env.PATH ?? '').split(delimiter).some((p) => p && resolve(p) === resolve(dir));
process.stdout.write(`hermes → ${target}\n  linked as ${link}\n`);
if (!onPath) {
  process.stdout.write(
    `  ${dir} is not on your PATH: add it (e.g. echo 'export PATH="${dir}:$PATH"' >> ~/.bashrc), ` +
      `or run ${target} directly\n`,
  );
}
