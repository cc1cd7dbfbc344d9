/**
 * A small stdio MCP server for tests, built on the official SDK's
 * `McpServer`. Run: `node --import tsx tests/support/mcp-echo-server.ts` (cwd: the repo root).
 *
 * Tools:
 * - `echo {text}` → the text `echo: <text>` (read-only);
 * - `add {a, b}` → the sum as text, plus `structuredContent {sum}`;
 * - `fail {message}` → an error result (`isError: true`) carrying the message;
 * - `exit {code}` → the process exits at once (a crash while connected);
 * - `big {mib}` → one text of `mib` MiB: `BEGIN`, numbered lines, `END` (a result far over the
 *   tool-output cap; its JSON-RPC message is a little larger, the newlines being escaped).
 * With `--name NAME` the server reports that name in `initialize`. With `--wait-for FILE` it
 * answers nothing (not even `initialize`) until FILE exists: a server that is slow to start, made
 * ready by the test at a moment of its choosing. It writes `mcp-echo-server ready` on stderr once
 * connected, so stderr capture can be checked. With `--linger FILE` it starts a `sleep 301` in its own
 * process group, keeps running after its stdin closes (a server that ignores the end of its
 * input), and writes `<its pid> <the sleep's pid>` to FILE once connected.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const nameIdx = process.argv.indexOf('--name');
const server = new McpServer({
  name: nameIdx > 0 ? (process.argv[nameIdx + 1] ?? 'echo') : 'echo',
  version: '1.0.0',
});

server.registerTool(
  'echo',
  {
    description: 'Echo the given text back',
    inputSchema: { text: z.string().describe('Text to echo') },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
);

server.registerTool(
  'add',
  { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { sum: a + b },
  }),
);

server.registerTool(
  'fail',
  { description: 'Always fails with the given message', inputSchema: { message: z.string() } },
  async ({ message }) => ({ content: [{ type: 'text', text: message }], isError: true }),
);

server.registerTool(
  'exit',
  { description: 'Exit the server process at once', inputSchema: { code: z.number().int() } },
  async ({ code }) => process.exit(code),
);

server.registerTool(
  'big',
  { description: 'Return a text of the given size', inputSchema: { mib: z.number().positive() } },
  async ({ mib }) => {
    const size = Math.floor(mib * 1024 * 1024);
    const line = (i: number) => `line ${String(i).padStart(8, '0')} ${'x'.repeat(50)}\n`;
    const lineChars = line(0).length;
    const body = Array.from({ length: Math.floor((size - 10) / lineChars) }, (_, i) => line(i)).join('');
    const text = `BEGIN\n${body}`.padEnd(size - 4, '.') + '\nEND';
    return { content: [{ type: 'text', text }] };
  },
);

const gateIdx = process.argv.indexOf('--wait-for');
const gate = gateIdx > 0 ? process.argv[gateIdx + 1] : undefined;
if (gate) while (!existsSync(gate)) await new Promise((r) => setTimeout(r, 20));

await server.connect(new StdioServerTransport());
const lingerIdx = process.argv.indexOf('--linger');
if (lingerIdx > 0) {
  const sleeper = spawn('sleep', ['301'], { stdio: 'ignore' });
  setInterval(() => undefined, 60_000); // alive without input
  writeFileSync(process.argv[lingerIdx + 1]!, `${process.pid} ${sleeper.pid}\n`);
}
process.stderr.write('mcp-echo-server ready\n');
