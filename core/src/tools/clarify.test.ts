import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clarifyTool } from './clarify.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ClarifyCallback } from './types.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-clarify-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('clarify', () => {
  it('asks through ctx.clarify and returns the answer', async () => {
    const asked: unknown[] = [];
    const clarify: ClarifyCallback = async (q) => {
      asked.push(q);
      return 'Postgres';
    };
    const ctx = makeToolContext(root, { clarify });
    const r = await runTool(
      clarifyTool,
      JSON.stringify({
        question: 'Which database?',
        choices: ['Postgres', 'SQLite', 'MySQL', 'Mongo', 'Redis'],
      }),
      ctx,
    );
    expect(r.ok).toBe(true);
    expect(asked).toEqual([
      { question: 'Which database?', choices: ['Postgres', 'SQLite', 'MySQL', 'Mongo'] },
    ]);
    expect(JSON.parse(r.content)).toEqual({
      question: 'Which database?',
      choices_offered: ['Postgres', 'SQLite', 'MySQL', 'Mongo'],
      user_response: 'Postgres',
    });
  });

  it('returns an error result when no user can answer (headless)', async () => {
    const r = await runTool(clarifyTool, '{"question":"Proceed?"}', makeToolContext(root));
    expect(r.ok).toBe(false);
    expect(r.content).toContain('no user is available to answer');
  });

  it('returns an error result when the question is abandoned', async () => {
    const ctx = makeToolContext(root, { clarify: () => Promise.reject(new Error('timed out')) });
    const r = await runTool(clarifyTool, '{"question":"Proceed?"}', ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('not answered (timed out)');
  });
});
