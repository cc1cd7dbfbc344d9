/**
 * `hermes chat -q` end to end: the real CLI process against the scripted
 * model server, with a real SessionDB, real tools and real child processes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes, spawnHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model.close();
});

/** The tool results the model received in request `i`. */
function toolResults(i: number): string[] {
  const msgs = (model.requests[i]!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return msgs.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('hermes chat -q', () => {
  it('runs a terminal tool call round trip and prints the final answer', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo tool-output-$((6*7))' } }] },
      { echo: 'last_tool_result', prefix: 'The command said: ' },
    );
    const run = await runHermes(root, ['chat', '-q', 'run echo for me']);
    expect(run.stderr).toContain('terminal');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The command said:');
    expect(run.stdout).toContain('tool-output-42');
    expect(toolResults(before + 1).join('\n')).toContain('tool-output-42');
  });

  it('prints one JSON event per line with --json', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hi-json' } }] },
      { text: 'All done.' },
    );
    const run = await runHermes(root, ['chat', '-q', 'go', '--json']);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; session_id: string; payload: Record<string, unknown> });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('session.info');
    for (const t of ['message.start', 'message.delta', 'tool.start', 'tool.complete', 'message.complete'])
      expect(types).toContain(t);
    const toolDone = events.find((e) => e.type === 'tool.complete')!;
    expect(toolDone.payload.ok).toBe(true);
    const last = events.filter((e) => e.type === 'message.complete').at(-1)!;
    expect(last.payload.text).toBe('All done.');
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  });

  it('exits 130 on Ctrl+C mid-stream and keeps the partial reply', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ hang: true, text: 'The partial answer starts here' });
    const p = spawnHermes(root, ['chat', '-q', 'write a long essay'], { input: '' });
    await p.waitForOutput(/partial answer starts here/);
    p.child.kill('SIGINT');
    const run = await p.exited;
    expect(run.code).toBe(130);
    const list = await runHermes(root, ['sessions', 'list', '--json']);
    const sessions = JSON.parse(list.stdout) as Array<{ id: string }>;
    expect(sessions).toHaveLength(1);
    const show = await runHermes(root, ['sessions', 'show', sessions[0]!.id, '--json']);
    const { messages } = JSON.parse(show.stdout) as {
      messages: Array<{ role: string; content: string; status: string }>;
    };
    expect(messages.find((m) => m.role === 'user')?.content).toBe('write a long essay');
    const reply = messages.find((m) => m.role === 'assistant')!;
    expect(reply.content).toBe('The partial answer starts here');
    expect(reply.status).toBe('interrupted');
  });

  describe('dangerous commands', () => {
    const setup = (extraConfig?: string): { root: string; victim: string } => {
      const root = makeTestHome({ modelUrl: model.url, ...(extraConfig ? { config: extraConfig } : {}) });
      const victim = join(root, 'victim');
      mkdirSync(join(victim, 'sub'), { recursive: true });
      writeFileSync(join(victim, 'sub', 'f.txt'), 'x');
      return { root, victim };
    };

    it('denies rm -rf headless without --yolo: the folder survives and the model is told', async () => {
      const { root, victim } = setup();
      const before = model.requests.length;
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
        { text: 'Understood.' },
      );
      const run = await runHermes(root, ['chat', '-q', 'clean up']);
      expect(run.code).toBe(0);
      expect(existsSync(join(victim, 'sub', 'f.txt'))).toBe(true);
      const told = toolResults(before + 1).join('\n');
      expect(told).toMatch(/denied/i);
      // the truth: no one could approve it here (not "the user denied"), and how to allow it
      expect(told).not.toMatch(/user denied/i);
      expect(told).toMatch(/no one who could approve it is here/);
      expect(told).toMatch(/hermes chat/);
      expect(run.stderr).toContain('blocked: no one could approve it here');
    });

    it('runs it with --yolo', async () => {
      const { root, victim } = setup();
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
        { text: 'Removed.' },
      );
      const run = await runHermes(root, ['chat', '-q', 'clean up', '--yolo']);
      expect(run.code).toBe(0);
      expect(existsSync(victim)).toBe(false);
    });

    it('runs it when allowlisted in config.yaml', async () => {
      const { root, victim } = setup();
      const cmd = `rm -rf ${victim}`;
      writeFileSync(
        join(root, 'config.yaml'),
        `${readFileSync(join(root, 'config.yaml'), 'utf8')}command_allowlist:\n  - ${JSON.stringify(cmd)}\n`,
      );
      model.push({ toolCalls: [{ name: 'terminal', arguments: { command: cmd } }] }, { text: 'Removed.' });
      const run = await runHermes(root, ['chat', '-q', 'clean up']);
      expect(run.code).toBe(0);
      expect(existsSync(victim)).toBe(false);
    });
  });

  it('answers in process, with a warning, when the discovery file is damaged', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    writeFileSync(join(root, 'tui-gateway.json'), 'garbage');
    model.push({ text: 'answered without a daemon' });
    const run = await runHermes(root, ['chat', '-q', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answered without a daemon');
    expect(run.stderr).toMatch(/tui-gateway\.json: not valid JSON; running without the daemon/);
  });

  it('retries a 429 and succeeds', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ error: { status: 429 } }, { text: 'after the rate limit' });
    const run = await runHermes(root, ['chat', '-q', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('after the rate limit');
  });

  it('falls back to the next provider when the primary keeps failing', async () => {
    const fallback = await startFakeModelServer({ script: [{ text: 'answer from the fallback' }] });
    try {
      const root = makeTestHome({
        modelUrl: model.url,
        config: `fallback_providers:\n  - provider: custom\n    base_url: ${fallback.url}\n    model: backup-model`,
      });
      model.push(...Array.from({ length: 4 }, () => ({ error: { status: 500 } })));
      const run = await runHermes(root, ['chat', '-q', 'hi']);
      expect(run.stderr).not.toMatch(/hermes: /);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('answer from the fallback');
      expect((fallback.requests[0]!.body as { model: string }).model).toBe('backup-model');
    } finally {
      await fallback.close();
    }
  }, 30_000);

  it('names the provider and the key variable on an auth error', async () => {
    const root = makeTestHome({ config: 'model:\n  provider: openrouter\n  default: some/model' });
    const run = await runHermes(root, ['chat', '-q', 'hi'], { env: { OPENROUTER_API_KEY: '' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('OPENROUTER_API_KEY');
  });

  it('refuses a broken config.yaml naming the file and the key', async () => {
    const root = makeTestHome({ modelUrl: model.url, config: 'approvals:\n  mode: sometimes' });
    const run = await runHermes(root, ['chat', '-q', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('config.yaml');
    expect(run.stderr).toContain('approvals.mode');
  });

  it('warns once on stderr about an unknown config key, naming the file, and still answers', async () => {
    const root = makeTestHome({ modelUrl: model.url, config: 'approval:\n  mode: off' });
    model.push({ text: 'answer despite typo' });
    const run = await runHermes(root, ['chat', '-q', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answer despite typo');
    expect(run.stdout).not.toContain('unknown key');
    const warnings = run.stderr.split('\n').filter((l) => l.includes('unknown key'));
    expect(warnings).toEqual([
      `hermes: warning: ${join(root, 'config.yaml')}: unknown key "approval" (did you mean "approvals"?); it is kept but Hermes does not use it`,
    ]);
  });

  it('continues the latest session with --continue and finds tool output by search', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo zebra-crossing-marker' } }] },
      { text: 'first' },
    );
    expect((await runHermes(root, ['chat', '-q', 'one'])).code).toBe(0);
    model.push({ text: 'second' });
    const before = model.requests.length;
    expect((await runHermes(root, ['chat', '-q', 'two', '--continue'])).code).toBe(0);
    const sent = (model.requests[before]!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'two']);
    const search = await runHermes(root, ['sessions', 'search', 'zebra-crossing', '--json']);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('zebra');
  });

  it('offers the MCP tools of the profile and calls them (in process)', async () => {
    const echo = join(process.cwd(), 'tests', 'support', 'mcp-echo-server.ts');
    const root = makeTestHome({
      modelUrl: model.url,
      config: `mcp_servers:\n  echo:\n    command: ${process.execPath}\n    args: ["--import", "tsx", ${JSON.stringify(echo)}]\n    cwd: ${JSON.stringify(process.cwd())}`,
    });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'mcp_echo_echo', arguments: { text: 'ping-through-mcp' } }] },
      { text: 'mcp ok' },
    );
    const run = await runHermes(root, ['chat', '-q', 'use the echo tool']);
    expect(run.code, run.stderr).toBe(0);
    const offered = (model.requests[before]!.body as { tools: Array<{ function: { name: string } }> }).tools;
    expect(offered.map((t) => t.function.name)).toContain('mcp_echo_echo');
    expect(toolResults(before + 1).join('\n')).toContain('echo: ping-through-mcp');
  }, 30_000);
});
