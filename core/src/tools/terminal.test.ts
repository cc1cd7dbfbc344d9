import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalGuard } from '../approvals/guard.js';
import { defaultConfig } from '../config/schema.js';
import { runTool } from './registry.js';
import { buildChildEnv, terminalTool } from './terminal.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-term-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (args: Record<string, unknown>, c: ToolContext = ctx) =>
  runTool(terminalTool, JSON.stringify(args), c);

/** True while `pid` is a live (not zombie) process. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('terminal', () => {
  it('runs a command and returns stdout and stderr with the exit code', async () => {
    const r = await run({ command: 'echo hello; echo oops >&2' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('hello');
    expect(r.content).toContain('oops');
    expect(r.content).toMatch(/\[exit code: 0\]$/);
    expect(r.summary).toBe('exit 0');
  });

  it('reports a non-zero exit code as a failed call', async () => {
    const r = await run({ command: 'echo before; exit 3' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('before');
    expect(r.content).toMatch(/\[exit code: 3\]$/);
    expect(r.summary).toBe('exit 3');
  });

  it('runs in the session cwd, or in workdir', async () => {
    mkdirSync(join(ctx.cwd, 'sub'));
    expect((await run({ command: 'pwd' })).content).toContain(ctx.cwd);
    expect((await run({ command: 'pwd', workdir: 'sub' })).content).toContain(join(ctx.cwd, 'sub'));
    const missing = await run({ command: 'pwd', workdir: 'nope' });
    expect(missing.ok).toBe(false);
    expect(missing.content).toMatch(/workdir .*nope does not exist/);
  });

  it('kills a command that runs past its timeout', async () => {
    const started = Date.now();
    const r = await run({ command: 'echo begun; sleep 30', timeout: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('begun');
    expect(r.content).toContain('timed out after 1 s');
  });

  it('kills the whole process tree within 1 s when interrupted', async () => {
    const ctrl = new AbortController();
    const pidFile = join(root, 'pid');
    const c = makeToolContext(root, { signal: ctrl.signal });
    const pending = run({ command: `sleep 100 & echo $! > ${pidFile}; wait` }, c);
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      10_000,
      'the pid file',
    );
    const sleepPid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(sleepPid)).toBe(true);
    const abortedAt = Date.now();
    ctrl.abort();
    const r = await pending;
    const returnedAfter = Date.now() - abortedAt;
    await waitFor(() => !isAlive(sleepPid), 1_000 - returnedAfter, 'the sleep child to die');
    const deadAfter = Date.now() - abortedAt;
    expect(returnedAfter).toBeLessThan(1_000);
    expect(deadAfter).toBeLessThan(1_000);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('interrupted');
  });

  it('SIGKILLs within 1 s a tree that ignores SIGTERM', async () => {
    const ctrl = new AbortController();
    const pidFile = join(root, 'pid');
    const c = makeToolContext(root, { signal: ctrl.signal });
    const pending = run({ command: `trap '' TERM; sleep 100 & echo $! > ${pidFile}; wait` }, c);
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      10_000,
      'the pid file',
    );
    const sleepPid = Number(readFileSync(pidFile, 'utf8'));
    const abortedAt = Date.now();
    ctrl.abort();
    await pending;
    await waitFor(
      () => !isAlive(sleepPid),
      Math.max(0, 1_000 - (Date.now() - abortedAt)),
      'the sleep child to die',
    );
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
  });

  it('does not wait for background jobs, and kills them when the shell exits', async () => {
    const pidFile = join(root, 'bg');
    const started = Date.now();
    const r = await run({ command: `sleep 60 & echo $! > ${pidFile}; echo started` });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.content).toContain('started');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !isAlive(pid), 2_000, 'the background sleep to die');
  });

  it('passes only the secrets named in terminal.env_passthrough to the child', async () => {
    const config = defaultConfig();
    config.terminal.env_passthrough = ['SHARED_TOKEN'];
    const c = makeToolContext(root, { config, secrets: { SHARED_TOKEN: 'tok-1', PRIVATE_KEY: 'secret-2' } });
    const r = await run({ command: 'echo "shared=$SHARED_TOKEN private=$PRIVATE_KEY path=${PATH:+set}"' }, c);
    expect(r.content).toContain('shared=tok-1 private= path=set');
    const env = buildChildEnv(config, { SHARED_TOKEN: 'a', OTHER: 'b' }, { HOME: '/h' });
    expect(env).toEqual({ HOME: '/h', SHARED_TOKEN: 'a' });
  });

  it('caps long output keeping head and tail', async () => {
    const r = await run({ command: 'seq 1 200000' });
    expect(r.ok).toBe(true);
    expect(r.content.length).toBeLessThan(51_000);
    expect(r.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.content).toContain('199999\n200000\n[exit code: 0]');
    expect(r.content).toMatch(/\[\.\.\. [\d,]+ chars omitted \.\.\.\]/);
  });

  it('strips ANSI escapes from the output', async () => {
    const r = await run({ command: "printf '\\033[31mred\\033[0m\\n'" });
    expect(r.content).toBe('red\n[exit code: 0]');
  });

  it('does not run a command the guard denies, and returns its message', async () => {
    const marker = join(root, 'ran');
    const c = makeToolContext(root, {
      checkCommand: async () => ({
        allowed: false,
        reason: 'denied',
        message: 'BLOCKED: The user denied it.',
      }),
    });
    const r = await run({ command: `touch ${marker}` }, c);
    expect(r).toMatchObject({
      ok: false,
      content: 'BLOCKED: The user denied it.',
      blocked: { reason: 'denied' },
    });
    expect(existsSync(marker)).toBe(false);
  });

  describe('with the real approval guard', () => {
    function withGuard(opts: { mode?: 'off'; allowlist?: string[] } = {}): {
      ctx: ToolContext;
      victim: string;
    } {
      const victim = join(root, 'victim');
      mkdirSync(join(victim, 'deep'), { recursive: true });
      writeFileSync(join(victim, 'deep', 'f.txt'), 'keep me');
      const base = makeToolContext(root);
      const config = { ...base.config, command_allowlist: opts.allowlist ?? [] };
      const guard = createApprovalGuard({ config, home: base.home, sessionId: 's', mode: opts.mode });
      const checkCommand = (cmd: string, cwd?: string) => guard.check(cmd, base.signal, undefined, cwd);
      return { ctx: { ...base, config, checkCommand }, victim };
    }

    it('denies rm -rf headless: the folder survives and the model is told not to retry', async () => {
      const { ctx: c, victim } = withGuard();
      const r = await run({ command: `rm -rf ${victim}` }, c);
      expect(r.ok).toBe(false);
      expect(r.content).toMatch(/BLOCKED: .*denied.*Do not run it again/s);
      expect(existsSync(join(victim, 'deep', 'f.txt'))).toBe(true);
    });

    it('runs rm -rf with mode off (--yolo)', async () => {
      const { ctx: c, victim } = withGuard({ mode: 'off' });
      const r = await run({ command: `rm -rf ${victim}` }, c);
      expect(r.ok).toBe(true);
      expect(existsSync(victim)).toBe(false);
    });

    it('runs rm -rf when entries for it are allowlisted, not for bare pattern keys', async () => {
      const keys = withGuard({ allowlist: ['recursive-delete', 'delete-absolute-path'] });
      expect((await run({ command: `rm -rf ${keys.victim}` }, keys.ctx)).ok).toBe(false);
      // the entries the card offers for this command, in the folder the terminal runs it in
      let allows: string[] = [];
      const probe = createApprovalGuard({
        config: keys.ctx.config,
        home: keys.ctx.home,
        sessionId: 's',
        callback: async (req) => {
          allows = req.allows;
          return 'deny';
        },
      });
      await probe.check(`rm -rf ${keys.victim}`, undefined, undefined, keys.ctx.cwd);
      const { ctx: c, victim } = withGuard({ allowlist: allows });
      const r = await run({ command: `rm -rf ${victim}` }, c);
      expect(r.ok).toBe(true);
      expect(existsSync(victim)).toBe(false);
    });

    it('checks a command in the folder it runs in (workdir): an entry for one folder does not cover another', async () => {
      let allows: string[] = [];
      const probe = createApprovalGuard({
        config: ctx.config,
        home: ctx.home,
        sessionId: 's',
        callback: async (req) => {
          allows = req.allows;
          return 'deny';
        },
      });
      await probe.check('rm -rf victim', undefined, undefined, root);
      const { ctx: c, victim } = withGuard({ allowlist: allows });
      expect(c.cwd).not.toBe(root);
      expect((await run({ command: 'rm -rf victim' }, c)).ok).toBe(false);
      expect((await run({ command: 'rm -rf victim', workdir: root }, c)).ok).toBe(true);
      expect(existsSync(victim)).toBe(false);
    });
  });
});

describe('buildChildEnv credentials', () => {
  it('`env` in the terminal shows no provider key of the daemon environment', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-env-leak-999999';
    try {
      const dir = mkdtempSync(join(tmpdir(), 'term-env-'));
      const r = await runTool(terminalTool, JSON.stringify({ command: 'env' }), makeToolContext(dir));
      expect(r.ok).toBe(true);
      expect(r.content).not.toContain('OPENAI_API_KEY');
      expect(r.content).not.toContain('sk-env-leak-999999');
      expect(r.content).toMatch(/^PATH=/m);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('drops credential-looking variables, keeps the rest, and lets env_passthrough bring names back', () => {
    const base = {
      PATH: '/bin',
      HOME: '/h',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      SSH_AUTH_SOCK: '/tmp/agent.sock',
      HTTPS_PROXY: 'http://proxy:3128',
      TOKENIZERS_PARALLELISM: 'false',
      OPENAI_API_KEY: 'a',
      ANTHROPIC_API_KEY: 'b',
      OPENROUTER_API_KEY: 'c',
      AWS_SECRET_ACCESS_KEY: 'd',
      AWS_ACCESS_KEY_ID: 'e',
      AWS_SESSION_TOKEN: 'f',
      GITHUB_TOKEN: 'g',
      SLACK_BOT_TOKEN: 'h',
      DB_PASSWORD: 'i',
      PGPASSWORD: 'j',
      MY_CLIENT_SECRET: 'k',
      GOOGLE_APPLICATION_CREDENTIALS: 'l',
      NPM_TOKEN: 'm',
    };
    const config = defaultConfig();
    expect(Object.keys(buildChildEnv(config, {}, base)).sort()).toEqual(
      ['HOME', 'HTTPS_PROXY', 'LANG', 'PATH', 'SSH_AUTH_SOCK', 'TERM', 'TOKENIZERS_PARALLELISM'].sort(),
    );
    config.terminal.env_passthrough = ['GITHUB_TOKEN', 'FROM_DOTENV'];
    const env = buildChildEnv(config, { FROM_DOTENV: 'x' }, base);
    expect(env.GITHUB_TOKEN).toBe('g');
    expect(env.FROM_DOTENV).toBe('x');
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });
});

describe('buildChildEnv and Hermes variables', () => {
  // A tool process must not learn where the settings that guard it live: HERMES_HOME names the
  // root (config.yaml, .env, tui-gateway.json with the daemon's token), HERMES_RPC_* an outer
  // script's tool channel. So none of them is passed on, and env_passthrough cannot name them.
  it('passes no HERMES_* variable on, not even through env_passthrough', () => {
    const config = defaultConfig();
    config.terminal.env_passthrough = ['HERMES_HOME', 'hermes_rpc_socket', 'KEEP_ME'];
    const env = buildChildEnv(
      config,
      { HERMES_HOME: '/from-dotenv', KEEP_ME: 'yes' },
      {
        PATH: '/usr/bin',
        HERMES_HOME: '/root-of-daemon/profiles/work',
        HERMES_RPC_SOCKET: '/tmp/x/rpc.sock',
        HERMES_RPC_TOKEN: 'rpc-secret',
        HERMES_DAEMON_TOKEN: 'daemon-secret',
        HERMES_LOG_LEVEL: 'debug',
        hermes_rpc_socket: '/tmp/y/rpc.sock',
      },
    );
    expect(env).toEqual({ PATH: '/usr/bin', KEEP_ME: 'yes' });
  });

  it('a command run by the terminal tool sees no HERMES_HOME', async () => {
    const saved = process.env.HERMES_HOME;
    process.env.HERMES_HOME = root;
    try {
      const r = await run({ command: 'echo "home=[${HERMES_HOME-unset}]"' });
      expect(r.content).toContain('home=[unset]');
    } finally {
      if (saved === undefined) delete process.env.HERMES_HOME;
      else process.env.HERMES_HOME = saved;
    }
  });
});
