/**
 * execute_code is approval-gated as a whole: a script can touch files and start programs
 * directly, so it runs only after the guard's `checkScript` allows it; its environment carries
 * no credentials and its output gets the registry's redaction.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptEntry } from '../../approvals/allowlist.js';
import { createApprovalGuard, EXECUTE_CODE_KEY, SCRIPT_SHOWN_CHARS } from '../../approvals/guard.js';
import type { ApprovalChoice, ApprovalRequest } from '../../approvals/types.js';
import { defaultConfig } from '../../config/schema.js';
import { runTool } from '../registry.js';
import { makeToolContext } from '../testing.js';
import type { ToolContext } from '../types.js';
import { executeCodeTool } from './execute-code.js';

/** A context whose `checkScript` is a real guard; `answers` are given in order (none: headless). */
function setup(
  opts: {
    answers?: ApprovalChoice[];
    mode?: 'off';
    allowlist?: string[] | ((victim: string) => string[]);
  } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'exec-appr-'));
  const base = makeToolContext(root);
  const victim = join(root, 'victim');
  const list = typeof opts.allowlist === 'function' ? opts.allowlist(victim) : opts.allowlist;
  const config = { ...defaultConfig(), command_allowlist: list ?? [] };
  const asked: ApprovalRequest[] = [];
  const answers = [...(opts.answers ?? [])];
  const guard = createApprovalGuard({
    config,
    home: base.home,
    sessionId: 's',
    persistAllowlist: false,
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.answers
      ? {
          callback: async (req: ApprovalRequest) => {
            asked.push(req);
            return answers.shift() ?? 'deny';
          },
        }
      : {}),
  });
  const ctx: ToolContext = {
    ...base,
    config,
    checkCommand: (c) => guard.check(c, base.signal),
    checkScript: (s) => guard.checkScript(s, base.signal),
  };
  mkdirSync(join(victim, 'deep'), { recursive: true });
  writeFileSync(join(victim, 'deep', 'f.txt'), 'keep me');
  return { root, ctx, asked, victim };
}

const run = (ctx: ToolContext, code: string, language = 'javascript') =>
  runTool(executeCodeTool, JSON.stringify({ code, language }), ctx);

const deleteVictim = (victim: string): string =>
  `import fs from 'node:fs'; fs.rmSync(${JSON.stringify(victim)}, { recursive: true }); console.log('deleted');`;

const saved: Record<string, string | undefined> = {};
const setEnv = (name: string, value: string): void => {
  if (!(name in saved)) saved[name] = process.env[name];
  process.env[name] = value;
};
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    delete saved[k];
  }
});

describe('execute_code approval', () => {
  it('headless (no user to ask, as in cron): the script is denied and never runs', async () => {
    const { ctx, victim } = setup();
    const r = await run(ctx, deleteVictim(victim));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(
      /^BLOCKED: A script \(run a javascript script \(execute_code\).*no one who could approve it is here/,
    );
    expect(r.summary).toBe('blocked (no_frontend)');
    expect(r.blocked).toEqual({ reason: 'no_frontend' });
    expect(existsSync(join(victim, 'deep', 'f.txt'))).toBe(true);
  });

  it('asks with the language and the script; deny keeps it from running, once runs it', async () => {
    const { ctx, asked, victim } = setup({ answers: ['deny', 'once'] });
    const code = deleteVictim(victim);
    const denied = await run(ctx, code);
    expect(denied.ok).toBe(false);
    expect(denied.content).toMatch(/^BLOCKED: The user denied a script/);
    expect(denied.blocked).toEqual({ reason: 'denied' });
    expect(existsSync(victim)).toBe(true);
    expect(asked[0]).toMatchObject({
      command: `execute_code (javascript):\n${code}`,
      patternKeys: [EXECUTE_CODE_KEY],
      choices: ['once', 'session', 'always', 'deny'],
    });
    expect(asked[0]!.description).toContain('execute_code');

    const allowed = await run(ctx, code);
    expect(allowed).toMatchObject({ ok: true, content: 'deleted\n' });
    expect(existsSync(victim)).toBe(false);
    expect(asked).toHaveLength(2); // `once` is not remembered
  });

  it('session approval covers the same script again, not another one', async () => {
    const { ctx, asked } = setup({ answers: ['session', 'deny'] });
    expect((await run(ctx, `console.log(1)`)).content).toBe('1\n');
    expect((await run(ctx, `console.log(1)`)).content).toBe('1\n');
    expect(asked).toHaveLength(1);
    expect((await run(ctx, `console.log(2)`)).ok).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it('shows only the head of a long script, saying how much is not shown', async () => {
    const { ctx, asked } = setup({ answers: ['deny'] });
    const code = Array.from({ length: 2_000 }, (_, i) => `console.log(${i});`).join('\n');
    await run(ctx, code, 'python');
    const shown = asked[0]!.command;
    expect(shown.startsWith('execute_code (python):\nconsole.log(0);\n')).toBe(true);
    expect(shown.length).toBeLessThan(SCRIPT_SHOWN_CHARS + 200);
    expect(shown).toMatch(/… \([\d,]+ more chars, \d+ more lines not shown\)$/);
  });

  it('runs unasked with approvals.mode off (--yolo) or when an entry for that script is allowlisted', async () => {
    // the entry a `deny` was offered for that script (its request's `allows`)
    const entryFor = (victim: string) => [
      scriptEntry(EXECUTE_CODE_KEY, 'javascript', deleteVictim(victim)).text,
    ];
    const probe = setup({ answers: ['deny'] });
    await run(probe.ctx, deleteVictim(probe.victim));
    expect(probe.asked[0]!.allows).toEqual(entryFor(probe.victim));
    for (const opts of [{ mode: 'off' as const }, { allowlist: entryFor, answers: [] }]) {
      const { ctx, asked, victim } = setup(opts);
      expect((await run(ctx, deleteVictim(victim))).ok).toBe(true);
      expect(existsSync(victim)).toBe(false);
      expect(asked).toHaveLength(0);
    }
  });

  it('the old pseudo-pattern key execute-code in command_allowlist no longer approves every script', async () => {
    const { ctx, asked, victim } = setup({ allowlist: [EXECUTE_CODE_KEY], answers: ['deny'] });
    expect((await run(ctx, deleteVictim(victim))).ok).toBe(false);
    expect(existsSync(victim)).toBe(true);
    expect(asked).toHaveLength(1);
  });
});

describe('execute_code environment and redaction', () => {
  it("the script's environment has no credential variables; env_passthrough ones are redacted in output", async () => {
    setEnv('OPENAI_API_KEY', 'sk-env-leak-9999999');
    setEnv('GITHUB_TOKEN', 'ghp_leak_1234567890');
    const { ctx } = setup({ mode: 'off' });
    const code = `console.log(JSON.stringify([process.env.OPENAI_API_KEY ?? null, process.env.GITHUB_TOKEN ?? null, typeof process.env.PATH]))`;
    const r = await run(ctx, code);
    expect(r.content).toBe('[null,null,"string"]\n');

    ctx.config.terminal.env_passthrough = ['GITHUB_TOKEN'];
    const passed = await run(ctx, `console.log(process.env.GITHUB_TOKEN)`);
    expect(passed.content).toBe('[REDACTED:GITHUB_TOKEN]\n');
  });

  it("the script gets its own run's RPC channel and no other HERMES_* variable (no root, no outer channel)", async () => {
    setEnv('HERMES_HOME', '/daemon-root/profiles/work');
    setEnv('HERMES_RPC_SOCKET', '/tmp/outer/rpc.sock');
    setEnv('HERMES_RPC_TOKEN', 'outer-token');
    const { ctx } = setup({ mode: 'off' });
    const r = await run(
      ctx,
      `console.log(JSON.stringify(Object.keys(process.env).filter((k) => k.startsWith('HERMES_')).sort()));
       console.log(process.env.HERMES_RPC_SOCKET === '/tmp/outer/rpc.sock' ? 'outer' : 'own');`,
    );
    expect(r.content).toBe('["HERMES_RPC_SOCKET","HERMES_RPC_TOKEN"]\nown\n');
  });

  it("redacts the daemon's discovery token and credential values the script finds elsewhere", async () => {
    setEnv('ANTHROPIC_API_KEY', 'sk-ant-leak-abcdefgh');
    const { ctx } = setup({ mode: 'off' });
    const token = 'daemon-token-0123456789abcdef';
    writeFileSync(join(ctx.home.root, 'tui-gateway.json'), JSON.stringify({ pid: 1, port: 1, token }));
    writeFileSync(join(ctx.cwd, 'leak.txt'), 'key=sk-ant-leak-abcdefgh');
    const r = await run(
      ctx,
      `import fs from 'node:fs';
       console.log(fs.readFileSync(${JSON.stringify(join(ctx.home.root, 'tui-gateway.json'))}, 'utf8'));
       console.log(fs.readFileSync('leak.txt', 'utf8'));`,
    );
    expect(r.content).not.toContain(token);
    expect(r.content).toContain('[REDACTED:HERMES_DAEMON_TOKEN]');
    expect(r.content).toContain('key=[REDACTED:ANTHROPIC_API_KEY]');
  });
});
