/**
 * MCP tools reach sessions that were open before their server was ready:
 * a session resolves its tool set at every turn (`toolSource`), so the next turn after the server
 * gets ready offers `mcp_<server>_<tool>` and can call it, a server removed by reload goes, and
 * the system prompt stays byte-identical. Real stdio MCP server (held back by a gate file), fake
 * model.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { openAgentSession } from '../agent/session-runtime.js';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { builtinTools } from '../tools/registry.js';
import { McpManager } from './manager.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ECHO_SERVER = join(REPO_ROOT, 'tests', 'support', 'mcp-echo-server.ts');

let model: FakeModelServer;
let manager: McpManager | undefined;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await manager?.close();
  await model.close();
});

const offered = (i: number): string[] =>
  ((model.requests[i]!.body.tools ?? []) as Array<{ function: { name: string } }>).map(
    (t) => t.function.name,
  );
const systemOf = (i: number): unknown => (model.requests[i]!.body.messages as unknown[])[0];

describe('MCP tools of an open session', () => {
  it('appear on the turn after the server gets ready, can be called, and go after a reload removes the server', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-live-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const gate = join(root, 'server-may-start');
    const config = ConfigSchema.parse({
      model: { provider: 'custom', base_url: model.url, default: 'fake' },
    });
    const servers = {
      slow: {
        command: process.execPath,
        args: ['--import', 'tsx', ECHO_SERVER, '--wait-for', gate],
        cwd: REPO_ROOT,
      },
    };
    manager = new McpManager({ home });
    const m = manager;
    const starting = m.start(servers);

    const opened = openAgentSession({
      home,
      source: 'test',
      select: { kind: 'new' },
      cwd: root,
      config,
      secrets: {},
      toolSource: () => [...builtinTools(), ...m.tools()],
    });
    try {
      // turn 1: the server is still held back
      const first = model.requests.length;
      model.push({ text: 'no MCP yet' });
      expect((await opened.agent.runTurn('hello')).text).toBe('no MCP yet');
      expect(offered(first)).toContain('read_file');
      expect(offered(first).filter((n) => n.startsWith('mcp_'))).toEqual([]);
      expect(m.status()[0]).toMatchObject({ name: 'slow', state: 'starting' });

      // the server gets ready while the session is idle
      writeFileSync(gate, '');
      await starting;
      expect(m.status()[0]).toMatchObject({ state: 'ready' });

      // turn 2: offered and callable
      const second = model.requests.length;
      model.push(
        { toolCalls: [{ name: 'mcp_slow_echo', arguments: { text: 'late but here' } }] },
        { echo: 'last_tool_result', prefix: 'Server: ' },
      );
      const r = await opened.agent.runTurn('use the echo tool');
      expect(r.status).toBe('complete');
      expect(r.text).toBe('Server: echo: late but here');
      expect(offered(second)).toEqual(expect.arrayContaining(['mcp_slow_echo', 'mcp_slow_add']));
      expect(systemOf(second)).toEqual(systemOf(first)); // the system prompt did not change

      // reload without the server: turn 3 no longer offers its tools
      await m.reload({});
      const third = model.requests.length;
      model.push({ text: 'gone' });
      await opened.agent.runTurn('and now?');
      expect(offered(third).filter((n) => n.startsWith('mcp_'))).toEqual([]);
      expect(offered(third)).toContain('read_file');
      expect(systemOf(third)).toEqual(systemOf(first));
    } finally {
      opened.close();
    }
  });
});
