/**
 * MCP stdio servers under the profile's sandbox policy (the `tui` lane): a server starts inside
 * bwrap and works; where the configured sandbox cannot run, it does not start and says why.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createSessionSandbox, mcpServerSandbox } from '../tools/sandbox/command-sandbox.js';
import { describeBwrap } from '../tools/sandbox/testing.js';
import { createMcpManager, type McpManager } from './manager.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ECHO_SERVER = join(REPO_ROOT, 'tests', 'support', 'mcp-echo-server.ts');
const echo = { command: process.execPath, args: ['--import', 'tsx', ECHO_SERVER], cwd: REPO_ROOT };

const dir = mkdtempSync(join(tmpdir(), 'hermes-mcp-sbx-'));
const managers: McpManager[] = [];
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  rmSync(dir, { recursive: true, force: true });
});

describeBwrap('MCP stdio servers in the sandbox', () => {
  it('start inside bwrap when the profile sandboxes its tui lane, and answer', async () => {
    const home = new HermesHome(join(dir, 'root')).ensure();
    const config = ConfigSchema.parse({ terminal: { sandbox: { tui: 'workspace' } }, mcp_servers: { echo } });
    const m = await createMcpManager(home, config, { sandbox: () => mcpServerSandbox(home, config) });
    managers.push(m);
    const [status] = m.status();
    expect(status).toMatchObject({ name: 'echo', state: 'ready' });
    const cmdline = readFileSync(`/proc/${status!.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline[0]).toMatch(/bwrap$/);
    expect(cmdline).toContain('--die-with-parent');
  });
});

describe('MCP stdio servers when the configured sandbox cannot run', () => {
  it('do not start, naming why', async () => {
    const home = new HermesHome(join(dir, 'root2')).ensure();
    const config = ConfigSchema.parse({ terminal: { sandbox: 'workspace' }, mcp_servers: { echo } });
    const sandbox = createSessionSandbox({
      lane: 'tui',
      home,
      sessionId: 'mcp',
      support: () => ({
        available: false,
        userNamespaces: 'enabled',
        reason: 'bwrap (bubblewrap) is not installed',
      }),
    }).forConfig(config);
    const m = await createMcpManager(home, config, { sandbox: () => sandbox });
    managers.push(m);
    const [status] = m.status();
    expect(status?.state).toBe('failed');
    expect(status?.error).toMatch(/not installed/);
  });
});
