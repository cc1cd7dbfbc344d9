/**
 * The home's `.env`: API keys and other secrets.
 *
 * Parsed into a per-home map with dotenv's parser and never copied into `process.env`, so two
 * profiles served by one daemon never see each other's keys. Written with mode 0600.
 */
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'dotenv';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/** Secrets of one home: name → value. Read-only view; use `setSecret` to change the file. */
export type Secrets = Readonly<Record<string, string>>;

/**
 * Reads `<home>/.env`. A missing file is an empty map. Tightens the mode to 0600 when the file is
 * readable by others.
 */
export function loadSecrets(home: HermesHome): Secrets {
  const file = home.envFile;
  if (!existsSync(file)) return {};
  try {
    // only when needed: a chmod changes the file's ctime, which the daemon watches (stat-on-use)
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    /* not ours to change; still readable */
  }
  return Object.freeze(parse(readFileSync(file, 'utf8')));
}

/**
 * Looks a key up in the home's secrets first, then in the process environment (keys exported by
 * the user's shell apply to every profile; `.env` keys only to their own).
 */
export function lookupSecret(
  secrets: Secrets,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const v = secrets[name] ?? env[name];
  return v && v.trim() !== '' ? v : undefined;
}

function quote(value: string): string {
  return /^[A-Za-z0-9_./:@+-]*$/.test(value) ? value : JSON.stringify(value);
}

/**
 * Sets (or with `value === undefined` removes) one secret in `<home>/.env`, keeping the other
 * lines and comments, written atomically with mode 0600.
 * @throws Error when `name` is not a valid variable name.
 */
export function setSecret(home: HermesHome, name: string, value: string | undefined): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid secret name "${name}"`);
  const file = home.envFile;
  // the other lines are kept byte for byte (latin1 maps each byte to one char and back), so a
  // line in another encoding is never turned into U+FFFD; only the new line is encoded as UTF-8
  const lines = existsSync(file) ? readFileSync(file, 'latin1').split('\n') : [];
  const re = new RegExp(`^\\s*(export\\s+)?${name}\\s*=`);
  const kept = lines.filter((l) => !re.test(l));
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  const parts = kept.map((l) => Buffer.from(`${l}\n`, 'latin1'));
  if (value !== undefined) parts.push(Buffer.from(`${name}=${quote(value)}\n`, 'utf8'));
  writeFileAtomic(file, Buffer.concat(parts), 0o600);
}
