import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpToolHarness, type McpToolHarness } from '../testing.js';
import { MAX_RESULT_CHARS } from './session-data.js';

let h: McpToolHarness;
beforeEach(async () => {
  h = await startMcpToolHarness();
});
afterEach(async () => {
  await h.close();
});

function data(r: { content: { text: string }[] }): Record<string, unknown> {
  const m = /<hermes_session_data>\n([\s\S]*)\n<\/hermes_session_data>$/.exec(r.content[0]!.text);
  if (!m) throw new Error(`no data in ${r.content[0]!.text}`);
  return JSON.parse(m[1]!) as Record<string, unknown>;
}

const message = (id: number, chars: number) => ({
  id,
  role: id % 2 ? 'user' : 'assistant',
  content: `${id}:${'x'.repeat(chars)}`,
  timestamp: 1_700_000_000_000 + id,
});

describe('session_messages', () => {
  it('clips each text and keeps the page within the result cap, dropping the oldest first', async () => {
    h.daemon.handlers.set('session.history', (p) => ({
      messages: Array.from({ length: Number(p.limit) }, (_, i) => message(i + 1, 9_000)),
      has_more: false,
    }));
    const r = await h.call('session_messages', { session_id: 's1', limit: 30, max_chars_per_message: 5_000 });
    const d = data(r) as {
      messages: { id: number; content: string }[];
      has_more: boolean;
      next_before: number;
    };
    expect(r.content[0]!.text.length).toBeLessThan(MAX_RESULT_CHARS + 2_000);
    expect(d.messages.length).toBeLessThan(30);
    expect(d.messages.at(-1)!.id).toBe(30); // the newest stay
    expect(d.messages.every((m) => m.content.length <= 5_000 && /characters left out/.test(m.content))).toBe(
      true,
    );
    expect(d).toMatchObject({ has_more: true, next_before: d.messages[0]!.id });
    const asked = h.daemon.conns[0]!.requests.find((q) => q.method === 'session.history')!;
    expect(asked.params).toEqual({ session_id: 's1', limit: 30 });
  });

  it('passes the daemon error on, naming the session', async () => {
    h.daemon.handlers.set('session.history', () => {
      throw { code: -32001, message: 'no session "nope"' };
    });
    const r = await h.call('session_messages', { session_id: 'nope' });
    expect(r).toMatchObject({ isError: true, content: [{ text: 'no session "nope"' }] });
  });
});

describe('sessions_list and sessions_search', () => {
  it('lists the daemon sessions with live and busy, asking in the connection profile only', async () => {
    h.daemon.handlers.set('session.list', () => ({
      sessions: [
        {
          id: 'a',
          title: null,
          source: 'tui',
          started_at: 1,
          message_count: 2,
          state: 'active',
          live: true,
          busy: true,
          preview: 'hello',
        },
      ],
    }));
    const d = data(await h.call('sessions_list', { limit: 3 }));
    expect(d.sessions).toEqual([
      expect.objectContaining({
        id: 'a',
        first_prompt: 'hello',
        live: true,
        busy: true,
        updated_at: new Date(1).toISOString(),
      }),
    ]);
    const asked = h.daemon.conns[0]!.requests.find((q) => q.method === 'session.list')!;
    expect(asked.params).toEqual({ limit: 3 }); // no `profile`: the connection's
  });

  it('search finds nothing in a profile without a state.db', async () => {
    const d = data(await h.call('sessions_search', { query: 'anything' }));
    expect(d.hits).toEqual([]);
  });
});
