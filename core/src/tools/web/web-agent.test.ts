/**
 * The web tools inside a real session and inside execute_code: the fake model calls web_extract
 * on a locally served page and the page's text reaches the next model request; web_search is
 * offered only when a provider is configured; a script calls web_search and web_extract.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../../tests/support/fake-model-server.js';
import { openAgentSession } from '../../agent/session-runtime.js';
import { ConfigSchema } from '../../config/schema.js';
import { HermesHome } from '../../home/home.js';
import { executeCodeTool } from '../execute-code/execute-code.js';
import { runTool } from '../registry.js';
import { makeToolContext } from '../testing.js';

let model: FakeModelServer;
let site: Server;
let base: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/search') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          query: 'q',
          number_of_results: 1,
          results: [{ url: `${base}/page`, title: 'Local page', content: 'about the moon', engine: 'x' }],
        }),
      );
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<html><head><title>Moon facts</title><script>SCRIPT_TEXT()</script></head><body><main>' +
        '<h1>The Moon</h1><p>The Moon orbits the Earth at an average distance of 384,400 km, ' +
        'and the same side always faces us because of tidal locking.</p></main></body></html>',
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await model.close();
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

const offered = (i: number): string[] =>
  ((model.requests[i]!.body.tools ?? []) as Array<{ function: { name: string } }>).map(
    (t) => t.function.name,
  );

function open(web: Record<string, unknown>) {
  const root = mkdtempSync(join(tmpdir(), 'web-agent-'));
  const home = new HermesHome(join(root, 'home')).ensure();
  const config = ConfigSchema.parse({
    model: { provider: 'custom', base_url: model.url, default: 'fake' },
    web: { allow_private_urls: true, ...web },
  });
  return openAgentSession({ home, source: 'test', select: { kind: 'new' }, cwd: root, config, secrets: {} });
}

describe('web tools in a session', () => {
  it('the model calls web_extract; the page text reaches the next model request as a tool message', async () => {
    vi.stubEnv('TAVILY_API_KEY', '');
    vi.stubEnv('BRAVE_API_KEY', '');
    const opened = open({});
    try {
      const first = model.requests.length;
      model.push(
        { toolCalls: [{ name: 'web_extract', arguments: { urls: [`${base}/moon`] } }] },
        { text: 'The Moon is about 384,400 km away.' },
      );
      const r = await opened.agent.runTurn('How far is the moon? Read the page.');
      expect(r.status).toBe('complete');
      expect(r.text).toBe('The Moon is about 384,400 km away.');

      expect(offered(first)).toContain('web_extract');
      expect(offered(first)).not.toContain('web_search'); // no provider configured
      const messages = model.requests[first + 1]!.body.messages as Array<{ role: string; content: string }>;
      const tool = messages.find((m) => m.role === 'tool')!;
      expect(tool.content).toContain('Title: "Moon facts"');
      expect(tool.content).toContain('average distance of 384,400 km');
      expect(tool.content).toContain('<untrusted-web-content id=');
      expect(tool.content).not.toContain('SCRIPT_TEXT');
    } finally {
      opened.close();
      vi.unstubAllEnvs();
    }
  });

  it('offers web_search when a provider is configured', async () => {
    const opened = open({ search_provider: 'searxng', searxng_url: base });
    try {
      const first = model.requests.length;
      model.push({ text: 'ok' });
      await opened.agent.runTurn('hi');
      expect(offered(first)).toEqual(expect.arrayContaining(['web_search', 'web_extract']));
    } finally {
      opened.close();
    }
  });
});

describe('web tools inside execute_code', () => {
  it('a script calls web_search, then web_extract on the first result', async () => {
    const config = ConfigSchema.parse({
      web: { allow_private_urls: true, search_provider: 'searxng', searxng_url: base },
    });
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'web-exec-')), { config });
    const code = `
      const found = await web_search({ query: 'moon distance', limit: 1 });
      const url = JSON.parse(found.match(/URL: (".*")/)[1]);
      const page = await web_extract({ urls: [url] });
      console.log(found.includes('Local page') ? 'search ok' : 'search missing');
      console.log(page.includes('384,400 km') ? 'extract ok' : 'extract missing: ' + page);
    `;
    const r = await runTool(executeCodeTool, JSON.stringify({ code }), ctx);
    expect(r.content).toBe('search ok\nextract ok\n');
    expect(r.summary).toMatch(/2 tool calls/);
  });

  it('a script cannot call web_search when no provider is configured', async () => {
    const config = ConfigSchema.parse({ web: { search_provider: 'none' } });
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'web-exec-')), { config });
    const code = `console.log(typeof web_search, typeof web_extract);`;
    const r = await runTool(executeCodeTool, JSON.stringify({ code }), ctx);
    expect(r.content).toBe('undefined function\n');
  });
});
