/**
 * Running the real `hermes` executable (compiled: `npm run build` first; `npm test` does) in a
 * temporary home, for cross-process tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of `bin/hermes`. */
export const HERMES_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/hermes');

/** A fresh root for `HERMES_HOME`, with an optional config.yaml pointing at a model server. */
export function makeTestHome(opts: { modelUrl?: string; config?: string; env?: string } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'hermes-test-'));
  mkdirSync(root, { recursive: true });
  const lines: string[] = ['_config_version: 2'];
  if (opts.modelUrl)
    lines.push('model:', '  provider: custom', `  base_url: ${opts.modelUrl}`, '  default: fake-model');
  if (opts.config) lines.push(opts.config);
  writeFileSync(join(root, 'config.yaml'), `${lines.join('\n')}\n`);
  if (opts.env) writeFileSync(join(root, '.env'), opts.env, { mode: 0o600 });
  return root;
}

/** The environment for a child hermes: the test's env minus keys that would leak in, plus the home. */
export function hermesEnv(root: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HERMES_HOME: root, NO_COLOR: '1', ...extra };
  for (const k of ['OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_BASE_URL'])
    if (!(k in extra)) delete env[k];
  return env;
}

/** Result of a finished hermes run. */
export interface HermesRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running hermes with live output buffers. */
export interface HermesProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the output (stdout + stderr) matches, or rejects at the deadline. */
  waitForOutput(re: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<HermesRun>;
}

/** Starts `hermes ARGS` with `HERMES_HOME=root`. */
export function spawnHermes(
  root: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): HermesProcess {
  const child = spawn(process.execPath, [HERMES_BIN, ...args], {
    env: hermesEnv(root, opts.env),
    cwd: opts.cwd ?? root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    notify();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    notify();
  });
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  const exited = new Promise<HermesRun>((resolveRun) =>
    child.on('close', (code, signal) => resolveRun({ code, signal, stdout: out, stderr: err })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput(re, timeoutMs = 10_000) {
      return new Promise<void>((ok, fail) => {
        const check = (): void => {
          if (re.test(out + err)) {
            waiters.delete(check);
            clearTimeout(timer);
            ok();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`timed out waiting for ${re} in output:\n${out}\n--- stderr ---\n${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs `hermes ARGS` to completion. */
export async function runHermes(
  root: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<HermesRun> {
  return spawnHermes(root, args, { input: '', ...opts }).exited;
}
