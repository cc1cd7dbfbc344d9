/**
 * `Agent.reconfigure`: config, secrets and model client swapped between turns (the daemon
 * re-reads config.yaml / .env), with the system prompt, history and session approvals kept.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import type { ApprovalRequest } from '../approvals/types.js';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import { SessionDB } from '../state/session-db.js';
import { builtinTools } from '../tools/registry.js';
import { Agent, type AgentOptions } from './agent.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

const configFor = (id: string, extra: Record<string, unknown> = {}) =>
  ConfigSchema.parse({
    model: { provider: 'custom', base_url: model.url, default: id, api_key_env: 'K' },
    checkpoints: { enabled: false },
    ...extra,
  });

/**
 * A fresh temp home, state.db and session (cwd: the temp folder), and Agent options for it:
 * `config`, the key `K=key`, a model client of both, the built-in tools and system prompt `sys`.
 */
function agentSetup(prefix: string, config: HermesConfig, key = 'k') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = new HermesHome(join(root, 'home')).ensure();
  const db = SessionDB.open(home.stateDbFile);
  const session = db.createSession({ source: 'test', cwd: root });
  const opts: AgentOptions = {
    home,
    config,
    secrets: { K: key },
    sessionId: session.id,
    cwd: root,
    store: db,
    model: createModelClient({ config, secrets: { K: key } }),
    tools: builtinTools(),
    systemPrompt: 'sys',
  };
  return { root, db, opts };
}

describe('Agent.reconfigure', () => {
  it('sends the next turn with the new model and key, the same system prompt and the history', async () => {
    const { db, opts } = agentSetup('agent-reconf-', configFor('first-model'), 'key-1');
    const agent = new Agent({ ...opts, systemPrompt: 'You are a test agent.' });
    const before = model.requests.length;
    await agent.runTurn('hello');
    const next = configFor('second-model');
    agent.reconfigure({
      config: next,
      secrets: { K: 'key-2' },
      model: createModelClient({ config: next, secrets: { K: 'key-2' } }),
    });
    await agent.runTurn('again');
    const [a, b] = model.requests.slice(before);
    expect(a!.body.model).toBe('first-model');
    expect(b!.body.model).toBe('second-model');
    expect(a!.headers.authorization).toBe('Bearer key-1');
    expect(b!.headers.authorization).toBe('Bearer key-2');
    expect(b!.body.messages[0]).toEqual(a!.body.messages[0]);
    expect(b!.body.messages.map((m: { content: string }) => m.content)).toContain('hello');
    db.close();
  });

  it('keeps session approvals and applies the new approvals mode', async () => {
    const setup = agentSetup('agent-reconf-', configFor('m'));
    const { root, db } = setup;
    const asked: ApprovalRequest[] = [];
    const opts = {
      ...setup.opts,
      onApproval: async (req: ApprovalRequest) => {
        asked.push(req);
        return 'session' as const;
      },
    };
    const agent = new Agent(opts);
    for (const d of ['a', 'b', 'c']) mkdirSync(join(root, d));
    const rm = (d: string) => ({ name: 'terminal', arguments: { command: `rm -rf ${join(root, d)}` } });

    model.push({ toolCalls: [rm('a')] }, { text: 'done' });
    await agent.runTurn('remove a');
    expect(asked).toHaveLength(1);
    expect(existsSync(join(root, 'a'))).toBe(false);

    // a changed config (another model): the `session` approval of that delete is kept
    const next = configFor('m2');
    agent.reconfigure({
      config: next,
      secrets: { K: 'k' },
      model: createModelClient({ config: next, secrets: { K: 'k' } }),
    });
    expect(agent.approvals.list()).toEqual(asked[0]!.allows);
    mkdirSync(join(root, 'a'));
    model.push({ toolCalls: [rm('a')] }, { text: 'done' });
    await agent.runTurn('remove a again');
    expect(asked).toHaveLength(1);
    expect(existsSync(join(root, 'a'))).toBe(false);
    // it approved that delete only: another folder is asked about
    model.push({ toolCalls: [rm('b')] }, { text: 'done' });
    await agent.runTurn('remove b');
    expect(asked).toHaveLength(2);
    expect(existsSync(join(root, 'b'))).toBe(false);

    // approvals.mode: off from the new config lets every match run without asking
    const fresh = new Agent({ ...opts, config: configFor('m') });
    const off = configFor('m', { approvals: { mode: 'off' } });
    fresh.reconfigure({
      config: off,
      secrets: { K: 'k' },
      model: createModelClient({ config: off, secrets: { K: 'k' } }),
    });
    model.push({ toolCalls: [rm('c')] }, { text: 'done' });
    await fresh.runTurn('remove c');
    expect(asked).toHaveLength(2);
    expect(existsSync(join(root, 'c'))).toBe(false);
    db.close();
  });

  it('refuses while a turn runs', async () => {
    const { db, opts } = agentSetup('agent-reconf-', configFor('m'));
    const settings = { config: opts.config, secrets: opts.secrets, model: opts.model };
    const agent = new Agent({ ...opts, tools: [], systemPrompt: 's' });
    model.push({ text: 'slow', delayMs: 300 });
    const running = agent.runTurn('x');
    expect(() => agent.reconfigure(settings)).toThrow(/running a turn/);
    await running;
    expect(() => agent.reconfigure(settings)).not.toThrow();
    db.close();
  });
});

describe('Agent.restrictApprovals', () => {
  function setup(approvals: Record<string, unknown>) {
    const { root, db, opts } = agentSetup('agent-restrict-', configFor('m', { approvals }));
    const asked: ApprovalRequest[] = [];
    const agent = new Agent({
      ...opts,
      onApproval: async (req: ApprovalRequest) => {
        asked.push(req);
        return 'deny' as const;
      },
    });
    const dir = (d: string): string => {
      mkdirSync(join(root, d));
      return join(root, d);
    };
    const rm = (d: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${d}` } }] });
    return { agent, asked, db, dir, rm };
  }

  it('a tightening applies to the running turn at once; a later loosening does not undo it', async () => {
    const { agent, asked, db, dir, rm } = setup({ mode: 'off' });
    const [a, b] = [dir('a'), dir('b')];
    const results: boolean[] = [];
    model.push(
      () => {
        results.push(agent.restrictApprovals(configFor('m', { approvals: { mode: 'manual' } })));
        return rm(a);
      },
      () => {
        results.push(agent.restrictApprovals(configFor('m', { approvals: { mode: 'off' } })));
        return rm(b);
      },
      { text: 'done' },
    );
    await agent.runTurn('clean up');
    expect(results).toEqual([true, false]);
    expect(asked.map((r) => r.command)).toEqual([`rm -rf ${a}`, `rm -rf ${b}`]);
    expect(existsSync(a) && existsSync(b)).toBe(true);
    // idle: nothing to restrict; the next turn takes the whole config through `reconfigure`
    expect(agent.restrictApprovals(configFor('m'))).toBe(false);
    db.close();
  });

  it('a loosening given during a turn leaves the turn on the settings it started with', async () => {
    const { agent, asked, db, dir, rm } = setup({ mode: 'manual' });
    const c = dir('c');
    let changed: boolean | undefined;
    model.push(
      () => {
        changed = agent.restrictApprovals(
          configFor('m', { approvals: { mode: 'off' }, command_allowlist: ['recursive-delete'] }),
        );
        return rm(c);
      },
      { text: 'done' },
    );
    await agent.runTurn('clean up');
    expect(changed).toBe(false);
    expect(asked).toHaveLength(1);
    expect(existsSync(c)).toBe(true);
    db.close();
  });
});
