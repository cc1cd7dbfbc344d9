import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { formatSearchHits, formatSessionTable } from './format.js';
import { readableHits, titleOrPreview, withPreviews } from './previews.js';

let dir: string;
let db: SessionDB;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-previews-'));
  db = SessionDB.open(join(dir, 'state.db'), { warn: () => {} });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sessions list previews', () => {
  it('shows the first prompt of an untitled session in the title column', () => {
    const s = db.createSession({ source: 'api_server' });
    db.appendMessage(s.id, { role: 'system', content: 'sys' });
    db.appendMessage(s.id, { role: 'user', content: 'Summarise the\nnightly build log for me' });
    for (let i = 0; i < 4; i++) db.appendMessage(s.id, { role: 'assistant', content: `a${i}` });
    const listed = withPreviews(db, db.listSessions());
    expect(listed[0]!.preview).toBe('Summarise the nightly build log for me');
    const table = formatSessionTable(listed.map(titleOrPreview), { now: Date.now(), width: 140 });
    expect(table).toContain('“Summarise the nightly build log for me”');
  });
});

describe('sessions search', () => {
  it('shows a hit inside a tool call as tool: name(args), not raw JSON', () => {
    const s = db.createSession({ source: 'cli', title: 'cleanup' });
    db.appendMessage(s.id, {
      role: 'assistant',
      content: '',
      tool_calls: JSON.stringify([
        {
          id: 'call_5',
          type: 'function',
          function: { name: 'terminal', arguments: JSON.stringify({ command: 'rm -rf /tmp/proj/c2' }) },
        },
      ]),
    });
    db.appendMessage(s.id, { role: 'user', content: 'please rm the folder' });
    const hits = db.search('rm');
    const shown = formatSearchHits(readableHits(db, hits, 'rm'), 'rm', { now: Date.now(), width: 120 });
    expect(shown).toContain('tool: terminal([rm] -rf /tmp/proj/c2)');
    expect(shown).not.toContain('"function"');
    expect(shown).toContain('please [rm] the folder');
  });
});
