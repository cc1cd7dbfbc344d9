/**
 * MCP servers recover without `/mcp reload` (real child processes, the SDK on both sides):
 * - a 20 MiB stdio result reaches the model cut to the tool-output cap with a marker, the
 *   connection stays up, and memory stays bounded;
 * - a stdio server killed with SIGKILL is reported as backing off, restarted, and the tool
 *   definitions sessions already hold reach the new process;
 * - a streamable HTTP server restarted on the same port (so it answers our session id with 404)
 *   gets a new `initialize` and the call is sent again; `/mcp` checks HTTP servers, so it shows a
 *   forgotten session renewed and a stopped server backing off, never a stale "ready".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { runTool } from '../tools/registry.js';
import { makeToolContext } from '../tools/testing.js';
import type { ToolContext } from '../tools/types.js';
import { formatMcpStatus, McpManager, runMcpCommand, type McpServerStatus } from './manager.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ECHO_SERVER = join(REPO_ROOT, 'tests', 'support', 'mcp-echo-server.ts');
const HTTP_SERVER = join(REPO_ROOT, 'tests', 'support', 'mcp-http-server.ts');
const MiB = 1024 * 1024;

const managers: McpManager[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A manager whose status changes are recorded, with a wait for the next matching one. */
function recordingManager() {
  const seen: McpServerStatus[] = [];
  const logs: string[] = [];
  const waiters: Array<{
    from: number;
    pred: (s: McpServerStatus) => boolean;
    resolve: (s: McpServerStatus) => void;
  }> = [];
  const manager = new McpManager({
    home: new HermesHome(join(mkdtempSync(join(tmpdir(), 'mcp-rec-')), 'home')).ensure(),
    log: (line) => logs.push(line),
    onStatus: (s) => {
      seen.push(s);
      for (const w of [...waiters])
        if (w.pred(s)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(s);
        }
    },
  });
  managers.push(manager);
  return {
    manager,
    logs,
    /** Index of the next status change. */
    mark: () => seen.length,
    /** The first status change from `from` on matching `pred`. */
    until(pred: (s: McpServerStatus) => boolean, from: number, what: string): Promise<McpServerStatus> {
      const hit = seen.slice(from).find(pred);
      if (hit) return Promise.resolve(hit);
      return deadline(new Promise((r) => waiters.push({ from, pred, resolve: r })), 20_000, what);
    },
  };
}

const ctx = (): ToolContext => makeToolContext(mkdtempSync(join(tmpdir(), 'mcp-rec-ctx-')));
const tool = (m: McpManager, name: string) => {
  const t = m.tools().find((x) => x.name === name);
  if (!t)
    throw new Error(
      `no tool ${name} in ${m
        .tools()
        .map((x) => x.name)
        .join(', ')}`,
    );
  return t;
};

describe('a stdio server', () => {
  const rec = recordingManager();
  const m = rec.manager;

  it('returns a 20 MiB result cut to the tool-output cap, with bounded memory, and stays up', async () => {
    await m.start({
      echo: { command: process.execPath, args: ['--import', 'tsx', ECHO_SERVER], cwd: REPO_ROOT },
    });
    const { pid } = m.status()[0]!;
    expect(m.status()[0]).toMatchObject({ state: 'ready' });
    const c = ctx();

    const mem = () => {
      const u = process.memoryUsage();
      return u.heapUsed + u.arrayBuffers;
    };
    const base = mem();
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, mem())), 2);
    const r = await runTool(tool(m, 'mcp_echo_big'), '{"mib":20}', c);
    clearInterval(sampler);
    const grewMiB = (Math.max(peak, mem()) - base) / MiB;
    console.log(`20 MiB MCP result: memory peak +${grewMiB.toFixed(1)} MiB (heap + array buffers)`);

    expect(r.ok).toBe(true);
    expect(r.content.length).toBeLessThanOrEqual(100_000);
    expect(r.content).toMatch(/^\[truncated: 20\.\d MiB result cut to 100,000 chars; head and tail kept\]\n/);
    expect(r.content).toContain('BEGIN\nline 00000000 xxx');
    expect(r.content.endsWith('\nEND')).toBe(true);
    expect(r.content).toMatch(/\[\.\.\. [\d,]+ chars omitted \.\.\.\]/);
    expect(grewMiB).toBeLessThan(40);

    expect(m.status()[0]).toMatchObject({ state: 'ready', pid });
    expect((await runTool(tool(m, 'mcp_echo_echo'), '{"text":"still here"}', c)).content).toBe(
      'echo: still here',
    );
  });

  it('killed, is reported backing off, restarts by itself, and old tool definitions reach it', async () => {
    const held = tool(m, 'mcp_echo_echo'); // what an open session holds
    const { pid } = m.status()[0]!;
    const from = rec.mark();
    process.kill(pid!, 'SIGKILL');

    const down = await rec.until((s) => s.state === 'backoff', from, 'echo to back off');
    expect(down).toMatchObject({ name: 'echo', attempt: 1, tools: [] });
    expect(down.error).toContain('the server killed by SIGKILL');
    expect(down.retryAt! - Date.now()).toBeLessThanOrEqual(500);
    expect(formatMcpStatus([down], down.retryAt! - 500)).toMatch(
      /^MCP servers:\n◌ echo \(stdio\) backing off until \d\d:\d\d:\d\d, in 1 s \(attempt 1\): the server killed by SIGKILL/,
    );

    const up = await rec.until((s) => s.state === 'ready', from, 'echo to be ready again');
    expect(up.pid).not.toBe(pid);
    expect(alive(up.pid!)).toBe(true);
    expect(m.tools().map((t) => t.name)).toContain('mcp_echo_echo');
    expect((await runTool(held, '{"text":"back"}', ctx())).content).toBe('echo: back');
    expect(await runMcpCommand(m, '')).toContain('● echo (stdio) ready · 5 tools');
    expect(rec.logs.some((l) => /"echo" restarted \(attempt 1\), ready with 5 tools/.test(l))).toBe(true);
  });
});

/** The HTTP test server as a child process. */
function httpServer(port: number, opts: { deferred?: boolean } = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', HTTP_SERVER, '--port', String(port), ...(opts.deferred ? ['--listen-on-stdin'] : [])],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const line = (re: RegExp, what: string) =>
    deadline(
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const m = re.exec(out);
          if (m) resolve(m);
        };
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          check();
        });
        check();
        child.once('exit', (code) => reject(new Error(`mcp-http-server exited (${code}): ${err}`)));
      }),
      15_000,
      what,
    );
  return {
    loaded: () => line(/loaded\n/, 'the HTTP server to load'),
    listening: async () => Number((await line(/listening (\d+)\n/, 'the HTTP server to listen'))[1]),
    listen: () => child.stdin.write('go\n'),
    kill: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGKILL');
      }),
  };
}

describe('a streamable HTTP server', () => {
  it('restarted on the same port gets a new session and the call is sent again; /mcp shows the truth', async () => {
    const first = httpServer(0);
    const port = await first.listening();
    // the replacements load meanwhile, and listen the moment the one before is gone
    const second = httpServer(port, { deferred: true });
    const third = httpServer(port, { deferred: true });
    const rec = recordingManager();
    const m = rec.manager;
    await m.start({ remote: { url: `http://127.0.0.1:${port}/mcp` } });
    expect(m.status()[0]).toMatchObject({ state: 'ready', kind: 'http' });
    const c = ctx();
    const stats = async () =>
      JSON.parse((await runTool(tool(m, 'mcp_remote_stats'), '{}', c)).content) as {
        pid: number;
        initializes: number;
        unknown_sessions: number;
      };
    const before = await stats();
    const echo = tool(m, 'mcp_remote_echo');

    // restarted on the same port
    await second.loaded();
    await first.kill();
    second.listen();
    expect(await second.listening()).toBe(port);
    const from = rec.mark();
    const r = await runTool(echo, '{"text":"after restart"}', c);
    expect(r).toMatchObject({ ok: true, content: 'echo: after restart' });
    expect(rec.logs.some((l) => l.includes('"remote" no longer knows our session (HTTP 404)'))).toBe(true);
    await rec.until((s) => s.state === 'ready', from, 'the new session');
    const after = await stats();
    expect(after.pid).not.toBe(before.pid);
    expect(after).toMatchObject({ initializes: 1, unknown_sessions: 1 }); // one 404, one initialize

    // restarted again, no call: /mcp pings, renews the session and says ready
    await third.loaded();
    await second.kill();
    third.listen();
    await third.listening();
    expect(await runMcpCommand(m, '')).toMatch(/● remote \(http\) ready · 2 tools/);
    expect(await stats()).toMatchObject({ initializes: 1, unknown_sessions: 1 });

    // stopped: /mcp does not say ready
    await third.kill();
    const out = await runMcpCommand(m, 'list');
    expect(out).toMatch(
      /◌ remote \(http\) backing off until .* \(attempt \d\): the server cannot be reached/,
    );
    expect(m.tools()).toEqual([]);
  });
});
