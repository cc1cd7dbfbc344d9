/**
 * Daemon slash commands across real processes: `/<skill>` loads the skill body as the user
 * message, `/rollback` restores files from a checkpoint,
 * `/mcp` reports the profile's servers, `/tools` the tools offered. Run `npm run build`
 * first.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-slash-', (root, url) => {
  writeConfig(root, url);
  mkdirSync(join(root, 'skills', 'deploy'), { recursive: true });
  writeFileSync(
    join(root, 'skills', 'deploy', 'SKILL.md'),
    '---\nname: deploy\ndescription: Ship the app\n---\nStep 1: run the secret-deploy-marker script.\n',
  );
});

describe('daemon slash commands', () => {
  it('/<skill> sends the skill body as the user message', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    model.push({ text: 'deploying' });
    const r = await client.c.request('slash.exec', { session_id: session.id, command: '/deploy to staging' });
    expect(r).toMatchObject({ handled: true, output: 'Loaded skill deploy.' });
    await client.until(is('turn.end', session.id), 'the skill turn ends');
    const sent = model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    const last = sent.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content).toContain('secret-deploy-marker');
    expect(last.content).toContain('to staging');
    // the body is not in the system prompt (only the index is)
    expect(sent[0]!.content).not.toContain('secret-deploy-marker');
  });

  it('/rollback restores a file the agent changed', async () => {
    const { client, model } = gw;
    // a project folder outside the Hermes root (the file tools may not write inside it)
    const work = mkdtempSync(join(tmpdir(), 'hermes-slash-project-'));
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'notes.txt'), 'original\n');
    const { session } = await client.c.request('session.create', { cwd: work });
    await client.c.request('session.attach', { session_id: session.id });
    model.push(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }] },
      { text: 'edited' },
    );
    await client.c.request('prompt.submit', { session_id: session.id, text: 'edit the notes' });
    await client.until(is('turn.end', session.id), 'the edit turn ends');
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('changed\n');
    const list = await client.c.request('slash.exec', { session_id: session.id, command: '/rollback' });
    expect(list.output).toMatch(/1/);
    const restored = await client.c.request('slash.exec', { session_id: session.id, command: '/rollback 1' });
    expect(restored.handled).toBe(true);
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('/mcp reports that no servers are configured', async () => {
    const { client, root } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    const r = await client.c.request('slash.exec', { session_id: session.id, command: '/mcp' });
    expect(r.output).toMatch(/No MCP servers configured/);
  });

  it('/tools lists the tools a turn offers, and /help names it', async () => {
    const { client, root } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    const r = await client.c.request('slash.exec', { session_id: session.id, command: '/tools' });
    expect(r.handled).toBe(true);
    expect(r.output).toMatch(/^\d+ tools:/);
    expect(r.output).toMatch(/^ {2}terminal +\S/m);
    expect(r.output).toMatch(/^ {2}read_file +\S/m);
    const help = await client.c.request('slash.exec', { session_id: session.id, command: '/help' });
    expect(help.output).toMatch(/^ {2}\/tools +tools the model can use/m);
  });

  it('session.create names a bad cwd or an over-long title as invalid params', async () => {
    const { client } = gw;
    await expect(
      client.c.request('session.create', { cwd: '/nonexistent/hermes-dir' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('cwd'),
    });
    await expect(client.c.request('session.create', { title: 'x'.repeat(100_000) })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('title'),
    });
  });
});
