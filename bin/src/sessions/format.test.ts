import { describe, expect, it } from 'vitest';
import { ATTACHED_CONTEXT_OPEN } from '@hermes/core/constants';
import type { SessionExport } from '@hermes/core/state';
import {
  displayWidth,
  formatAge,
  formatSessionDetail,
  formatSearchHits,
  formatSessionTable,
  storedError,
  summarizeToolCalls,
  truncate,
} from './format.js';
import { inert } from '../terminal-text.js';

describe('sessions formatting', () => {
  it('formats ages', () => {
    const now = Date.UTC(2026, 10, 29, 12);
    expect(formatAge(now - 3_000, now)).toBe('just now');
    expect(formatAge(now - 45_000, now)).toBe('45s ago');
    expect(formatAge(now - 12 * 60_000, now)).toBe('12m ago');
    expect(formatAge(now - 3 * 3_600_000, now)).toBe('3h ago');
    expect(formatAge(now - 5 * 86_400_000, now)).toBe('5d ago');
    expect(formatAge(now - 60 * 86_400_000, now)).toMatch(/^2026-09-30$/);
  });

  it('measures and truncates by terminal columns', () => {
    expect(displayWidth('数据库')).toBe(6);
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('数据库设计讨论', 7)).toBe('数据库…');
    expect(truncate('short', 10)).toBe('short');
  });

  it('summarises tool calls', () => {
    const calls = JSON.stringify([
      { function: { name: 'read_file', arguments: '{"path":"a.ts","offset":10}' } },
    ]);
    expect(summarizeToolCalls(calls)).toEqual(['read_file(a.ts, 10)']);
    expect(summarizeToolCalls('not json')).toEqual(['not json']);
    expect(summarizeToolCalls(null)).toEqual([]);
  });

  it('shows search hits with snippets (bold matches on a terminal)', () => {
    const hit = {
      session_id: 's1',
      message_id: 1,
      role: 'tool',
      snippet: 'a [match]\nhere',
      timestamp: 0,
      session_title: null,
    };
    expect(formatSearchHits([hit], 'match', { now: 0 })).toBe(
      's1  (untitled)  tool · just now\n    a [match] here\n',
    );
    expect(formatSearchHits([hit], 'match', { now: 0, color: true })).toContain('\u001b[1mmatch\u001b[22m');
    expect(formatSearchHits([], 'zzz', { now: 0 })).toBe('No messages match "zzz".\n');
  });

  it('reads the error a failed reply stored in its outcome', () => {
    expect(storedError({ outcome: JSON.stringify({ error: '400 model not found' }) })).toBe(
      '400 model not found',
    );
    expect(storedError({ outcome: JSON.stringify({ ok: true }) })).toBeUndefined();
    expect(storedError({ outcome: 'not json' })).toBeUndefined();
    expect(storedError({ outcome: null })).toBeUndefined();
  });

  it('shows the attached references of a user message as chips, their content only with --full', () => {
    const content = `explain @src/app.ts${ATTACHED_CONTEXT_OPEN}notice\nrefs: [{"kind":"file","ref":"src/app.ts","bytes":4200}]\nFILE_BODY\n</attached-context>`;
    const exp = {
      session: {
        id: 's1',
        title: 't',
        source: 'tui',
        state: 'ended',
        started_at: 0,
        message_count: 1,
        prompt_tokens: 0,
        completion_tokens: 0,
      },
      messages: [
        { id: 1, role: 'user', content, timestamp: 0, status: null, tool_calls: null, outcome: null },
      ],
    } as unknown as SessionExport;
    const short = formatSessionDetail(exp, { color: false, now: 0 });
    expect(short).toContain('  explain @src/app.ts\n  📄 src/app.ts (4.2 KB)');
    expect(short).not.toContain('FILE_BODY');
    expect(formatSessionDetail(exp, { color: false, now: 0, full: true })).toContain('FILE_BODY');
  });

  it('shows stored text (chat messages, names, tool output) inertly: no terminal controls or bidi overrides', () => {
    // clear screen, a window title, a clipboard write (OSC 52), a carriage return that overwrites
    const hostile = 'hi\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;cm0gLXJm\u0007\rX\u202eevil\u009b31m';
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    expect(inert('a\tb\nc')).toBe('a\tb\nc');
    expect(controls.test(inert(hostile))).toBe(false);
    const session = {
      id: 's1',
      title: `Ops ${hostile}`,
      source: 'telegram',
      state: 'ended',
      started_at: 0,
      message_count: 2,
      prompt_tokens: 0,
      completion_tokens: 0,
    };
    const exp = {
      session,
      messages: [
        {
          id: 1,
          role: 'user',
          content: hostile,
          timestamp: 0,
          status: null,
          tool_calls: null,
          outcome: null,
        },
        {
          id: 2,
          role: 'assistant',
          content: '',
          timestamp: 0,
          status: null,
          tool_calls: JSON.stringify([
            { function: { name: 'terminal', arguments: JSON.stringify({ command: hostile }) } },
          ]),
          outcome: JSON.stringify({ error: hostile }),
        },
      ],
    } as unknown as SessionExport;
    expect(controls.test(formatSessionDetail(exp, { color: false, now: 0, full: true }))).toBe(false);
    expect(controls.test(formatSessionTable([session as never], { now: 0 }))).toBe(false);
    const hit = {
      session_id: 's1',
      message_id: 1,
      role: 'user',
      snippet: hostile,
      timestamp: 0,
      session_title: hostile,
    };
    expect(controls.test(formatSearchHits([hit], 'hi', { now: 0 }))).toBe(false);
  });
});
