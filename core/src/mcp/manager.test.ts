/**
 * The MCP client: a stdio MCP server written for the test is started and its
 * tool is called by the agent loop against the scripted model; bad servers fail on their own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { Agent } from '../agent/agent.js';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import { SessionDB } from '../state/session-db.js';
import { builtinTools, runTool } from '../tools/registry.js';
import { makeToolContext } from '../tools/testing.js';
import { expandVars, parseMcpServers } from './config.js';
import { createMcpManager, formatMcpStatus, runMcpCommand, type McpManager } from './manager.js';
import { mcpResultToToolResult, mcpToolName } from './mcp-tools.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ECHO_SERVER = join(REPO_ROOT, 'tests', 'support', 'mcp-echo-server.ts');
const echoEntry = { command: process.execPath, args: ['--import', 'tsx', ECHO_SERVER], cwd: REPO_ROOT };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let model: FakeModelServer;
const managers: McpManager[] = [];
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  await model.close();
});

function newHome(): HermesHome {
  return new HermesHome(join(mkdtempSync(join(tmpdir(), 'mcp-')), 'home')).ensure();
}

describe('mcp config', () => {
  it('validates each entry on its own and expands ${NAME} from secrets, then the environment', () => {
    const { servers, errors } = parseMcpServers(
      {
        a: { command: 'srv', args: ['--token', '${TOKEN}'], env: { KEY: '${TOKEN}', LIT: '$${TOKEN}' } },
        b: {
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer ${TOKEN}' },
          transport: 'sse',
        },
        c: { url: 'ftp://x' },
        d: { args: [] },
        'bad name!': { command: 'x' },
        e: { command: 'x', enabled: false, timeout: -1 },
      },
      { TOKEN: 's3cret' },
    );
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'a',
        kind: 'stdio',
        args: ['--token', 's3cret'],
        env: { KEY: 's3cret', LIT: '${TOKEN}' },
      }),
      expect.objectContaining({
        name: 'b',
        kind: 'http',
        transport: 'sse',
        headers: { Authorization: 'Bearer s3cret' },
      }),
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'mcp_servers.c: "url" must be http:// or https://',
      'mcp_servers.d: expected a non-empty "command" (stdio) or "url" (HTTP)',
      expect.stringMatching(/^mcp_servers\.bad name!: the server name must be/),
      'mcp_servers.e: "timeout" must be a positive number of seconds',
    ]);
    expect(expandVars('${NOPE_NOT_SET_ANYWHERE}x', {}, {})).toBe('x');
  });

  it('names tools mcp_<server>_<tool>, sanitized and at most 64 chars', () => {
    expect(mcpToolName('echo', 'echo')).toBe('mcp_echo_echo');
    expect(mcpToolName('git hub', 'list.issues')).toBe('mcp_git_hub_list_issues');
    const long = mcpToolName('server', 'x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).not.toBe(mcpToolName('server', `${'x'.repeat(99)}y`));
  });

  it('turns MCP content into text', () => {
    expect(
      mcpResultToToolResult('t', {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///x', text: 'res text' } },
        ],
      }).content,
    ).toBe('hello\n[image: image/png, 4 bytes base64]\nres text');
    expect(mcpResultToToolResult('t', { content: [], structuredContent: { a: 1 } }).content).toContain(
      '"a": 1',
    );
    expect(
      mcpResultToToolResult('t', { content: [{ type: 'text', text: 'bad' }], isError: true }),
    ).toMatchObject({
      ok: false,
      content: 't: bad',
    });
  });
});

describe('McpManager', () => {
  let home: HermesHome;
  let manager: McpManager;
  const config = ConfigSchema.parse({
    mcp_servers: {
      echo: echoEntry,
      missing: { command: '/nonexistent/hermes-mcp-server' },
      crashy: {
        command: process.execPath,
        args: ['-e', "console.error('boom: bad token'); process.exit(3)"],
      },
      broken: { args: ['x'] },
      off: { ...echoEntry, enabled: false },
    },
  });

  beforeAll(async () => {
    home = newHome();
    manager = await createMcpManager(home, config);
    managers.push(manager);
  });

  it('starts the good server; the bad ones fail with a reason and do not stop it', () => {
    const byName = Object.fromEntries(manager.status().map((s) => [s.name, s]));
    expect(byName.echo).toMatchObject({
      state: 'ready',
      kind: 'stdio',
      tools: ['mcp_echo_echo', 'mcp_echo_add', 'mcp_echo_fail', 'mcp_echo_exit', 'mcp_echo_big'],
    });
    expect(byName.missing).toMatchObject({ state: 'failed' });
    expect(byName.missing!.error).toMatch(/could not start: .*ENOENT/);
    expect(byName.crashy).toMatchObject({ state: 'failed' });
    expect(byName.crashy!.error).toContain('boom: bad token');
    expect(byName.broken).toMatchObject({ kind: 'invalid', state: 'failed' });
    expect(byName.off).toMatchObject({ state: 'disabled', tools: [] });
    expect(manager.tools().map((t) => t.name)).toEqual(byName.echo!.tools);
    expect(manager.tools().find((t) => t.name === 'mcp_echo_echo')!.readOnly).toBe(true);

    const text = formatMcpStatus(manager.status());
    expect(text).toContain('● echo (stdio) ready · 5 tools: mcp_echo_echo');
    expect(text).toMatch(/✗ missing \(stdio\) failed: could not start/);
    expect(text).toContain('○ off (stdio) disabled');
  });

  it('the agent loop calls mcp_echo_echo through the scripted model', async () => {
    const cfg = ConfigSchema.parse({ model: { provider: 'custom', base_url: model.url, default: 'fake' } });
    const db = SessionDB.open(home.stateDbFile);
    const session = db.createSession({ source: 'test', cwd: home.dir });
    const agent = new Agent({
      home,
      config: cfg,
      secrets: {},
      sessionId: session.id,
      cwd: home.dir,
      store: db,
      model: createModelClient({ config: cfg, secrets: {} }),
      tools: [...builtinTools(), ...manager.tools()],
      systemPrompt: 'test',
    });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'mcp_echo_echo', arguments: { text: 'hello from the model' } }] },
      { echo: 'last_tool_result', prefix: 'The server said: ' },
    );
    const r = await agent.runTurn('use the echo tool');
    expect(r.status).toBe('complete');
    expect(r.text).toBe('The server said: echo: hello from the model');
    const offered = (model.requests[before]!.body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).toContain('mcp_echo_echo');
    db.close();
  });

  it('maps results and errors of MCP tools', async () => {
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'mcp-ctx-')));
    const tool = (n: string) => manager.tools().find((t) => t.name === n)!;
    expect((await runTool(tool('mcp_echo_add'), '{"a":2,"b":3}', ctx)).content).toBe('5');
    const failed = await runTool(tool('mcp_echo_fail'), '{"message":"nope"}', ctx);
    expect(failed).toMatchObject({ ok: false, content: 'mcp_echo_fail: nope' });
  });

  it('a server that crashes is restarted by itself; reload restarts it too, and old tool definitions reach the new one', async () => {
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'mcp-ctx-')));
    const echo = manager.tools().find((t) => t.name === 'mcp_echo_echo')!;
    const exit = manager.tools().find((t) => t.name === 'mcp_echo_exit')!;
    const echoState = () => manager.status().find((s) => s.name === 'echo')!;
    const pid = echoState().pid!;
    expect(alive(pid)).toBe(true);
    await runTool(exit, '{"code":1}', ctx);
    // the crash shows at once (not ready); a call meanwhile waits for the restart or tries at once
    expect(echoState().state).not.toBe('ready');
    expect((await runTool(echo, '{"text":"x"}', ctx)).content).toBe('echo: x');
    expect(echoState()).toMatchObject({ state: 'ready' });
    expect(echoState().pid).not.toBe(pid);

    const out = await runMcpCommand(manager, 'reload', config);
    expect(out).toContain('● echo (stdio) ready');
    expect((await runTool(echo, '{"text":"again"}', ctx)).content).toBe('echo: again');
  });

  it('is per profile: another home has its own (here: none) servers', async () => {
    const other = await createMcpManager(newHome(), ConfigSchema.parse({}));
    managers.push(other);
    expect(other.tools()).toEqual([]);
    expect(await runMcpCommand(other, '')).toMatch(/No MCP servers configured/);
    expect(manager.tools().length).toBe(5);
  });

  it('close stops the server processes', async () => {
    const m = await createMcpManager(newHome(), ConfigSchema.parse({ mcp_servers: { echo: echoEntry } }));
    managers.push(m);
    const pid = m.status()[0]!.pid!;
    expect(alive(pid)).toBe(true);
    await m.close();
    expect(alive(pid)).toBe(false);
    expect(m.tools()).toEqual([]);
  });
});
