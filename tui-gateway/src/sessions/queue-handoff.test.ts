/**
 * The handoff of a queued prompt to its turn: the stored row stays until the transaction that
 * stores the prompt's user message removes it, so a crash at any point leaves the prompt stored
 * (as a message) or held (as a queue row), never neither.
 */
import { describe, expect, it } from 'vitest';
import { useStateDbFile } from '@hermes/core/testing';
import type { SessionAgent } from './live-session.js';
import { bareLiveSession, stubConnection } from './testing.js';

const fx = useStateDbFile('hermes-handoff-');

const quiet = stubConnection();

describe('queued prompt → turn handoff', () => {
  it('keeps the row until the user message is stored, and removes it in that transaction', async () => {
    const db = fx.open();
    const sid = db.createSession({ source: 'tui' }).id;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: Array<{ text: string; rowAtStart: boolean; rowAfter: boolean; id?: string }> = [];
    const agent: SessionAgent = {
      runTurn: async (text, _signal, opts) => {
        const rows = () => db.queuedPrompts(sid).map((r) => r.text);
        const rowAtStart = rows().includes(text);
        // what Agent.runTurn does first: the user message, with the row removed in its transaction
        db.appendMessage(
          sid,
          { role: 'user', content: text },
          opts?.queuedPromptId ? { unqueuePromptId: opts.queuedPromptId } : {},
        );
        seen.push({ text, rowAtStart, rowAfter: rows().includes(text), id: opts?.queuedPromptId });
        if (text === 'first') await gate;
        return { status: 'complete', text: 'ok' };
      },
    };
    const live = bareLiveSession(db, () => agent, { id: sid });
    live.attach(quiet);
    expect(live.submit('first').status).toBe('started');
    const second = live.submit('second');
    expect(second.status).toBe('queued');
    expect(db.queuedPrompts(sid).map((r) => r.text)).toEqual(['second']);
    release();
    await live.idle();
    expect(seen).toEqual([
      { text: 'first', rowAtStart: false, rowAfter: false, id: undefined },
      { text: 'second', rowAtStart: true, rowAfter: false, id: second.prompt_id },
    ]);
    expect(db.queuedPrompts(sid)).toEqual([]);
  });

  it('removes the row of a turn that failed before storing its user message', async () => {
    const db = fx.open();
    const sid = db.createSession({ source: 'tui' }).id;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const agent: SessionAgent = {
      runTurn: async (text) => {
        if (text === 'first') {
          await gate;
          return { status: 'complete', text: 'ok' };
        }
        throw new Error('no model configured');
      },
    };
    const live = bareLiveSession(db, () => agent, { id: sid });
    live.attach(quiet);
    live.submit('first');
    live.submit('second');
    release();
    await live.idle();
    expect(db.queuedPrompts(sid)).toEqual([]);
  });
});
