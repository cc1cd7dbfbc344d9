#!/usr/bin/env node
/**
 * `npm run link`: puts a `hermes` command on PATH without sudo: a symlink to this checkout's
 * bin/hermes in `$XDG_BIN_HOME` or `~/.local/bin` (created when missing). An existing `hermes`
 * there that is not a symlink is left alone (exit 1). Says whether that folder is on PATH.
 */
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const target = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'hermes');
const dir = process.env.XDG_BIN_HOME || join(homedir(), '.local', 'bin');
const link = join(dir, 'hermes');
mkdirSync(dir, { recursive: true });
const existing = lstatSync(link, { throwIfNoEntry: false });
if (existing && !existing.isSymbolicLink()) {
  process.stderr.write(`hermes: ${link} exists and is not a link; left as it is\n`);
  process.exit(1);
}
const already = existing !== undefined && readlinkSync(link) === target;
if (existing && !already) unlinkSync(link);
if (!already) symlinkSync(target, link);
const onPath = (process.env.PATH ?? '').split(delimiter).some((p) => p && resolve(p) === resolve(dir));
process.stdout.write(`hermes → ${target}\n  linked as ${link}\n`);
if (!onPath) {
  process.stdout.write(
    `  ${dir} is not on your PATH: add it (e.g. echo 'export PATH="${dir}:$PATH"' >> ~/.bashrc), ` +
      `or run ${target} directly\n`,
  );
}
