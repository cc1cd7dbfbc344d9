import { hermesCommand } from '../command-form.js';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { SessionDB } from '@hermes/core/state';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../testing.js';
import { CliExit } from '../context.js';

let root: string;
let home: HermesHome;

/** Runs `hermes ARGS` in process; returns stdout. */
const hermes = async (...argv: string[]): Promise<string> => (await runCliInProcess(home, argv)).out;

async function failure(...argv: string[]): Promise<CliExit> {
  const err = await hermes(...argv).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliExit);
  return err as CliExit;
}

function seed(): { a: string; b: string } {
  const db = SessionDB.open(home.stateDbFile, { warn: () => {} });
  const a = db.createSession({
    source: 'cli',
    title: 'Deploy staging',
    model: 'gpt-4o',
    startedAt: Date.now() - 7_200_000,
  });
  db.appendMessage(a.id, { role: 'system', content: 'You are Hermes.' });
  db.appendMessage(a.id, { role: 'user', content: 'Deploy the api to staging' });
  db.appendMessage(a.id, {
    role: 'tool',
    content: 'deployment.apps/api configured',
    tool_name: 'terminal',
    tool_call_id: 'c1',
  });
  db.appendMessage(a.id, { role: 'assistant', content: 'Done with gpt-4o-mini.', status: 'interrupted' });
  const b = db.createSession({ source: 'tui', title: 'Groceries' });
  db.appendMessage(b.id, { role: 'user', content: 'milk and eggs' });
  db.close();
  return { a: a.id, b: b.id };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-sessions-cli-'));
  home = new HermesHome(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hermes sessions', () => {
  it('lists nothing (and creates nothing) in a fresh home', async () => {
    expect(await hermes('sessions', 'list')).toBe('No sessions yet.\n');
    expect(JSON.parse(await hermes('sessions', 'list', '--json'))).toEqual([]);
    expect(await hermes('sessions', 'search', 'x')).toMatch(/No messages match "x"/);
    expect(() => statSync(home.stateDbFile)).toThrow();
  });

  it('lists sessions newest first as a table and as JSON', async () => {
    const { a, b } = seed();
    const table = (await hermes('sessions', 'list')).split('\n');
    expect(table[0]).toMatch(/^ID\s+TITLE\s+SOURCE\s+MSGS\s+STARTED\s+ACTIVE$/);
    expect(table[1]).toMatch(new RegExp(`^${b}\\s+Groceries\\s+tui\\s+1\\s+just now`));
    expect(table[2]).toMatch(new RegExp(`^${a}\\s+Deploy staging\\s+cli\\s+4\\s+2h ago`));
    const json = JSON.parse(await hermes('sessions', 'list', '--json')) as { id: string }[];
    expect(json.map((s) => s.id)).toEqual([b, a]);
    expect(JSON.parse(await hermes('sessions', 'list', '--json', '--source', 'cli'))).toHaveLength(1);
  });

  it('show --json prints {session, messages}; text shows the transcript', async () => {
    const { a } = seed();
    const exp = JSON.parse(await hermes('sessions', 'show', a, '--json'));
    expect(exp.session).toMatchObject({ id: a, title: 'Deploy staging', message_count: 4 });
    expect(exp.messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'tool',
      'assistant',
    ]);
    expect(exp.messages[3].status).toBe('interrupted');
    const text = await hermes('sessions', 'show', 'Deploy staging'); // by exact title
    expect(text).toContain('Deploy the api to staging');
    expect(text).toContain('tool terminal');
    expect(text).toContain('assistant [interrupted]');
    expect(text).not.toContain('You are Hermes.');
    expect(await hermes('sessions', 'show', a.slice(0, 20), '--full')).toContain('You are Hermes.'); // by id prefix
  });

  it('search shows snippets and takes awkward plain words', async () => {
    const { a } = seed();
    const text = await hermes('sessions', 'search', 'gpt-4o');
    expect(text).toContain(a);
    expect(text).toContain('[gpt-4o]');
    const hits = JSON.parse(await hermes('sessions', 'search', 'configured', '--json'));
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ session_id: a, role: 'tool' });
    expect(JSON.parse(await hermes('sessions', 'search', 'deploy', 'AND', '--json'))).toHaveLength(1);
    expect(JSON.parse(await hermes('sessions', 'search', '"milk', '--json'))).toHaveLength(1);
  });

  it('exports Markdown, JSON, and to a 0600 file', async () => {
    const { a } = seed();
    expect(await hermes('sessions', 'export', a)).toMatch(
      /^# Deploy staging\n[\s\S]*## user ·[\s\S]*Deploy the api/,
    );
    expect(JSON.parse(await hermes('sessions', 'export', a, '--json')).messages).toHaveLength(4);
    const file = join(root, 'out', 'a.json');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await hermes('sessions', 'export', a, '--json', '-o', file);
    err.mockRestore();
    expect(JSON.parse(readFileSync(file, 'utf8')).session.id).toBe(a);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('renames and deletes', async () => {
    const { a, b } = seed();
    expect(JSON.parse(await hermes('sessions', 'rename', a, 'Prod', 'rollout', '--json')).title).toBe(
      'Prod rollout',
    );
    expect(await hermes('sessions', 'rename', b, 'Shopping')).toBe(`Renamed ${b} to "Shopping"\n`);
    expect(JSON.parse(await hermes('sessions', 'delete', 'Prod rollout', '--json'))).toEqual({
      deleted: a,
      messages: 4,
    });
    expect(JSON.parse(await hermes('sessions', 'list', '--json')).map((s: { id: string }) => s.id)).toEqual([
      b,
    ]);
    expect(JSON.parse(await hermes('sessions', 'search', 'staging', '--json'))).toEqual([]);
  });

  it('an unknown or ambiguous id is a clear error with exit 1', async () => {
    seed();
    for (const action of ['show', 'export', 'delete']) {
      const e = await failure('sessions', action, 'nope');
      expect(e.code).toBe(1);
      expect(e.message).toBe(
        `no session "nope" in ${home.stateDbFile} (see ${hermesCommand()} sessions list)`,
      );
    }
    expect((await failure('sessions', 'rename', 'nope', 'x')).message).toMatch(/no session "nope"/);
    const db = SessionDB.open(home.stateDbFile, { warn: () => {} });
    db.createSession({ source: 'cli', id: 'abcd-1' });
    db.createSession({ source: 'cli', id: 'abcd-2' });
    db.close();
    expect((await failure('sessions', 'show', 'abcd')).message).toMatch(
      /"abcd" matches several sessions: abcd-2, abcd-1/,
    );
    expect((await failure('sessions', 'rename', 'Groceries', 'x'.repeat(300))).message).toMatch(
      /title is 300/,
    );
  });
});
