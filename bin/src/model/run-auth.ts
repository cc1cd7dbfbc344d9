/**
 * The work of `hermes auth` (commands/auth.ts parses the line) on the selected profile's `.env`:
 * - `add PROVIDER [--key K | stdin | a prompt without echo] [--no-check]`: checks the key with
 *   one `GET /models` (4 s at most): accepted, refused (401/403: kept only when the user says so
 *   at the terminal), or unreachable (kept, with a warning); then writes it to the provider's
 *   first key variable in `.env` (0600, through the one `.env` writer);
 * - `list`: the providers that have a key, the variable, where it is set and its last 4
 *   characters — never the key;
 * - `remove PROVIDER`: deletes the provider's key variables (and their pools `NAME_2`…) from `.env`.
 * No key is ever printed or logged.
 */
import {
  checkProviderKey,
  collectKeys,
  EnvValueError,
  loadConfig,
  loadSecrets,
  lookupSecret,
  normalizeProviderName,
  presetFor,
  PROVIDER_PRESETS,
  setSecret,
  unknownProviderMessage,
  type ProviderPreset,
} from '../lazy/model.js';
import { CliExit, type CliContext } from '../context.js';
import { hermesCommand } from '../command-form.js';

const out = (text: string): void => void process.stdout.write(`${text}\n`);

/** The preset a name stands for, when it takes a key. */
function keyedPreset(name: string): ProviderPreset {
  const id = normalizeProviderName(name);
  const preset = id ? presetFor(id) : undefined;
  if (!preset) {
    if (id === 'custom')
      throw new CliExit(
        1,
        'custom: put the key in .env under any name and set model.api_key_env to that name',
      );
    throw new CliExit(1, `auth: ${unknownProviderMessage(name)}`);
  }
  if (preset.unsupported) throw new CliExit(1, `Provider "${preset.id}": ${preset.unsupported}`);
  if (preset.keyVars.length === 0)
    throw new CliExit(
      1,
      `${preset.id} is a local server that takes no key (set model.api_key_env if yours wants one)`,
    );
  return preset;
}

/** The last 4 characters of a long key, else nothing of it. */
export function maskKey(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : '••••';
}

async function readHidden(question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (!muted) process.stderr.write(chunk);
      cb();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const { interrupted } = await import('../confirm.js');
  rl.on('SIGINT', interrupted);
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of process.stdin) parts.push(p as Buffer);
  return Buffer.concat(parts).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** The base URL a check call goes to: the profile's `model.base_url` when it is this provider's. */
function checkBaseURL(ctx: CliContext, preset: ProviderPreset): string | undefined {
  const config = loadConfig(ctx.home);
  if (config.model.provider === preset.id && config.model.base_url) return config.model.base_url;
  return preset.baseUrlVar ? lookupSecret(loadSecrets(ctx.home), preset.baseUrlVar) : undefined;
}

/**
 * Why `key` cannot be an API key, or undefined: a character outside printable ASCII (a control
 * character, a no-break or zero-width space picked up when copying from a web page) never belongs
 * to a key, and one above U+00FF cannot even be sent in an HTTP header. Names the character and its
 * position (1-based), never the key.
 */
export function oddKeyCharacter(key: string): string | undefined {
  const chars = [...key];
  const i = chars.findIndex((c) => c < ' ' || c > '~');
  if (i < 0) return undefined;
  const code = chars[i]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `contains the character U+${code} at position ${i + 1}, which no API key has`;
}

/** `hermes auth add`. */
export async function addKey(
  ctx: CliContext,
  name: string,
  opts: { key?: string; check: boolean },
): Promise<void> {
  const preset = keyedPreset(name);
  const variable = preset.keyVars[0]!;
  let key = opts.key;
  if (key === undefined) {
    key = process.stdin.isTTY
      ? await readHidden(`API key for ${preset.label} (${variable}; not shown): `)
      : await readStdin();
  }
  key = key.trim();
  if (!key) throw new CliExit(1, `no key given for ${preset.id}; nothing written`);
  const odd = oddKeyCharacter(key);
  if (odd) throw new CliExit(1, `the key for ${preset.id} ${odd}; nothing written (paste it again)`);
  if (opts.check) {
    const baseURL = checkBaseURL(ctx, preset);
    const r = await checkProviderKey(preset, key, baseURL ? { baseURL } : {});
    if (r.result === 'ok') out(`OK: ${r.detail}`);
    else if (r.result === 'rejected') {
      process.stderr.write(`Rejected: ${r.detail}\n`);
      let keep = false;
      if (process.stdin.isTTY) {
        const { confirm } = await import('../confirm.js');
        keep = await confirm('Keep this key anyway? [y/N] ');
      }
      if (!keep)
        throw new CliExit(
          1,
          `key not saved (${hermesCommand()} auth add ${preset.id} --no-check saves it without asking)`,
        );
    } else process.stderr.write(`warning: ${r.detail}; saving the key unchecked\n`);
  }
  ctx.home.ensure();
  try {
    setSecret(ctx.home, variable, key);
  } catch (err) {
    if (err instanceof EnvValueError) throw new CliExit(1, err.message);
    throw err;
  }
  out(`Saved ${variable} for ${preset.id} in ${ctx.home.envFile}`);
}

/** `hermes auth list`. */
export function listKeys(ctx: CliContext, json: boolean): void {
  const secrets = loadSecrets(ctx.home);
  const rows: Array<{ provider: string; variable: string; where: string; keys: number; last4: string }> = [];
  for (const p of PROVIDER_PRESETS) {
    for (const v of p.keyVars) {
      const keys = collectKeys(v, secrets);
      if (keys.length === 0) continue;
      rows.push({
        provider: p.id,
        variable: v,
        where: secrets[v] !== undefined ? '.env' : 'environment',
        keys: keys.length,
        last4: maskKey(keys[0]!.value),
      });
    }
  }
  if (json) return out(JSON.stringify(rows, null, 2));
  if (rows.length === 0)
    return out(`No provider keys (${hermesCommand()} auth add PROVIDER saves one in ${ctx.home.envFile})`);
  const w = Math.max(...rows.map((r) => r.provider.length));
  const vw = Math.max(...rows.map((r) => r.variable.length));
  for (const r of rows) {
    const pool = r.keys > 1 ? `, ${r.keys} keys` : '';
    out(`${r.provider.padEnd(w)}  ${r.variable.padEnd(vw)}  ${r.last4}  (${r.where}${pool})`);
  }
}

/** `hermes auth remove`. */
export function removeKey(ctx: CliContext, name: string): void {
  const preset = keyedPreset(name);
  const secrets = loadSecrets(ctx.home);
  const pool = (v: string) => new RegExp(`^${v}_\\d+$`);
  const names = Object.keys(secrets).filter((k) => preset.keyVars.some((v) => k === v || pool(v).test(k)));
  for (const n of names) setSecret(ctx.home, n, undefined);
  const exported = preset.keyVars.filter((v) => process.env[v] !== undefined);
  if (names.length === 0) out(`No key for ${preset.id} in ${ctx.home.envFile}`);
  else out(`Removed ${names.join(', ')} from ${ctx.home.envFile}`);
  if (exported.length > 0)
    process.stderr.write(`note: ${exported.join(', ')} is also exported in the environment\n`);
}
