/**
 * A command that needs approval, asked for through the HTTP API server (the real daemon, the
 * `openai` package as the client): nobody can approve over HTTP, so it is denied at once, the
 * folder it would delete is still there, and both the model and the caller are told the truth —
 * no one could approve it here (and how the user can allow it), never "the user denied".
 * The session's sandbox is off, so only the approval guard stands between the model and the
 * folder. Run `npm run build` first.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServerDaemon } from './support/api-server-daemon.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let root: string;
let client: OpenAI;

beforeAll(async () => {
  model = await startFakeModelServer();
  ({ root, client } = await startApiServerDaemon(model));
  // appended after the platform block: a top-level key of its own
  const { appendFileSync } = await import('node:fs');
  appendFileSync(join(root, 'config.yaml'), 'terminal:\n  sandbox: off\n');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

/** The tool results the model received in request `i`. */
function toolResults(i: number): string[] {
  const msgs = (model.requests[i]!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return msgs.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('API server: a command that needs approval', () => {
  it('is denied at once as having no approver; the folder survives and nobody is told "the user denied"', async () => {
    const victim = join(root, 'victim');
    mkdirSync(join(victim, 'sub'), { recursive: true });
    writeFileSync(join(victim, 'sub', 'keep.txt'), 'precious');
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'I could not delete it.' },
    );
    const started = Date.now();
    const r = await client.chat.completions.create({
      model: 'hermes-agent',
      messages: [{ role: 'user', content: 'delete the victim folder' }],
    });
    expect(Date.now() - started).toBeLessThan(20_000); // not the approval timeout
    expect(existsSync(join(victim, 'sub', 'keep.txt'))).toBe(true);

    const told = toolResults(before + 1).join('\n');
    expect(told).toMatch(/^BLOCKED: /m);
    expect(told).not.toMatch(/user denied/i);
    expect(told).toMatch(/no one who could approve it is here/);
    expect(told).toMatch(/the user did not deny it/);
    expect(told).toMatch(/interactive session/);

    const content = r.choices[0]!.message.content ?? '';
    expect(content).toContain('no one can approve it through this API');
    expect(content).toContain('I could not delete it.');
  });
});
