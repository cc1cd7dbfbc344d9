/**
 * A streamable HTTP MCP server for tests, built on the official SDK's server side: one stateful
 * session per `initialize` (`mcp-session-id`), kept in memory only, so a restarted server no
 * longer knows the sessions of the one before and answers them `404 Session not found`, as real
 * servers do. Run: `node --import tsx tests/support/mcp-http-server.ts [--port N]` (cwd: the repo
 * root; port 0 or none picks a free one). Prints `listening <port>` on stdout when it serves.
 * With `--listen-on-stdin` it loads everything, prints `loaded`, and listens only once a line
 * arrives on stdin: a replacement started while the old server still holds the port, switched on
 * the moment it is gone.
 *
 * Tools:
 * - `echo {text}` → `echo: <text>` (read-only);
 * - `stats {}` → JSON `{pid, initializes, unknown_sessions}`: this process's id, sessions it
 *   started and requests it refused for an unknown session id.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const portIdx = process.argv.indexOf('--port');
const port = portIdx > 0 ? Number(process.argv[portIdx + 1]) : 0;
const sessions = new Map<string, StreamableHTTPServerTransport>();
let initializes = 0;
let unknownSessions = 0;

function newServer(): McpServer {
  const server = new McpServer({ name: 'http-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the given text back',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool('stats', { description: 'Counters of this server process' }, async () => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({ pid: process.pid, initializes, unknown_sessions: unknownSessions }),
      },
    ],
  }));
  return server;
}

const http = createServer((req, res) => {
  const sid = req.headers['mcp-session-id'];
  const handle = async () => {
    if (typeof sid === 'string') {
      const known = sessions.get(sid);
      if (!known) {
        unknownSessions++;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      await known.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end('a request without a session id must be initialize');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        initializes++;
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await newServer().connect(transport);
    await transport.handleRequest(req, res);
  };
  handle().catch((err: unknown) => {
    process.stderr.write(`mcp-http-server: ${(err as Error).message}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  });
});

const listen = () =>
  http.listen(port, '127.0.0.1', () => {
    const addr = http.address();
    process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
  });
if (process.argv.includes('--listen-on-stdin')) {
  process.stdin.once('data', listen);
  process.stdout.write('loaded\n');
} else listen();
