/**
 * The agent loop against the scripted model server with a real SessionDB and real tools.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { builtinTools } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/types.js';
import { buildSystemPrompt } from './system-prompt.js';
import { createTestAgent } from './testing.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

function setup(tools: ToolDefinition[] = builtinTools(), extra: Record<string, unknown> = {}) {
  return createTestAgent({ modelUrl: model.url, tools, config: extra });
}

/** A read-only tool that records when it ran. */
function slowReadTool(
  name: string,
  log: Array<{ name: string; start: number; end: number }>,
  ms: number,
): ToolDefinition {
  return {
    name,
    description: 'test',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    async handler() {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, ms));
      log.push({ name, start, end: performance.now() });
      return { ok: true, content: `${name} result` };
    },
  };
}

describe('Agent', () => {
  it('runs two read-only tool calls of one response concurrently, results in the order asked', async () => {
    const log: Array<{ name: string; start: number; end: number }> = [];
    const { agent, db, session } = setup([
      slowReadTool('slow_a', log, 300),
      slowReadTool('slow_b', log, 100),
    ]);
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'slow_a' }, { name: 'slow_b' }] }, { text: 'done' });
    const r = await agent.runTurn('go');
    expect(r.status).toBe('complete');
    const a = log.find((l) => l.name === 'slow_a')!;
    const b = log.find((l) => l.name === 'slow_b')!;
    // measured overlap: b started before a finished, and a started before b finished
    expect(b.start).toBeLessThan(a.end);
    expect(a.start).toBeLessThan(b.end);
    const sent = (model.requests[before + 1]!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'slow_a result',
      'slow_b result',
    ]);
    const stored = db.getMessages(session.id).filter((m) => m.role === 'tool');
    expect(stored.map((m) => m.content)).toEqual(['slow_a result', 'slow_b result']);
  });

  it('kills a running terminal command on interrupt within 1 s', async () => {
    const { agent, events } = setup();
    model.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 30' } }] });
    const ctl = new AbortController();
    const turn = agent.runTurn('sleep', ctl.signal);
    const deadline = Date.now() + 5_000;
    while (!events.some((e) => e.type === 'tool.start') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    ctl.abort();
    const r = await turn;
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(r.status).toBe('interrupted');
  });

  it('tells the model about an unknown tool instead of failing', async () => {
    const { agent } = setup([]);
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'no_such_tool' }] }, { text: 'ok' });
    await agent.runTurn('x');
    const sent = (model.requests[before + 1]!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(sent.find((m) => m.role === 'tool')?.content).toMatch(/Unknown tool "no_such_tool"/);
  });
});

describe('buildSystemPrompt', () => {
  it('is byte-stable, uses SOUL.md, memory, skills and the context file of the working directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'sp-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const config = ConfigSchema.parse({});
    writeFileSync(home.soulFile, 'You are Tess, a terse assistant.');
    writeFileSync(home.memoryFile, 'User prefers pnpm§Server is at 10.0.0.2');
    const skillDir = join(home.skillsDir, 'deploy');
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, 'SKILL.md'),
      '---\nname: deploy\ndescription: Ship the app to production\n---\nSteps...',
    );
    const proj = join(root, 'proj', 'sub');
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, 'AGENTS.md'), `Use tabs.\n${'x'.repeat(30_000)}`);
    const now = new Date('2026-11-29T10:00:00Z');
    const a = buildSystemPrompt({ home, config, cwd: proj, now, toolNames: ['terminal'] });
    const b = buildSystemPrompt({
      home,
      config,
      cwd: proj,
      now: new Date('2026-11-29T23:59:00Z'),
      toolNames: ['terminal'],
    });
    expect(a).toBe(b);
    expect(a).toContain('You are Tess');
    expect(a).not.toContain('You are Hermes');
    expect(a).toContain('User prefers pnpm');
    expect(a).toContain('deploy: Ship the app to production');
    expect(a).not.toContain('Steps...');
    expect(a).toContain('Use tabs.');
    expect(a).toMatch(/chars omitted/);
    expect(a.length).toBeLessThan(25_000);
  });
});
