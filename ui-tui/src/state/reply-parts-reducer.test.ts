/**
 * A reply printed in parts while it streams, through the session reducer: finished blocks become
 * transcript items at once, the reply's end carries the rest and the whole, and a reconnect (or a
 * new daemon's snapshot) neither prints a part twice nor loses one.
 */
import { describe, expect, it } from 'vitest';
import type { EventType } from '@hermes/core/protocol';
import { snapshotResult, sessionInfo, stored, wire, type PartialPayload } from '../testing/fixtures.js';
import { initialSessionState, sessionReducer, type SessionAction } from './session-reducer.js';
import { itemKey } from './history-items.js';
import { liveText } from './reply-parts.js';
import type { SessionState } from './types.js';

const run = (actions: SessionAction[], from: SessionState = initialSessionState()): SessionState =>
  actions.reduce(sessionReducer, from);
const ev = <K extends EventType>(type: K, seq: number, payload = {} as PartialPayload<K>): SessionAction => ({
  type: 'event',
  event: wire(type, seq, payload),
  now: 0,
});
const attach = (over: Parameters<typeof snapshotResult>[0]): SessionAction => ({
  type: 'attach',
  result: snapshotResult(over),
  now: 0,
});
/** What the transcript prints, assistant items with their part marks. */
const printed = (s: SessionState): string[] =>
  s.items.map((i) => (i.kind === 'assistant' ? `${i.part ? 'part' : 'reply'}:${i.text}` : `${i.kind}`));

/** The same session attached again: the stored turn before, then `after`; `inflight` text if any. */
function reattach(state: SessionState, after: ReturnType<typeof stored>[], inflight?: string): SessionState {
  const messages = [
    stored('user', 'earlier'),
    stored('assistant', 'earlier reply'),
    stored('user', 'go'),
    ...after,
  ];
  const live =
    inflight === undefined
      ? {}
      : {
          session: sessionInfo({ busy: true }),
          inflight: { prompt: 'go', text: inflight, reasoning: '', tools: [], started_at: 1 },
        };
  return run([attach({ seq: 120, messages, ...live })], state);
}

const REPLY = 'First paragraph.\n\nSecond paragraph\nwith two lines.\n\n```sh\nls\n\npwd\n```\n\nLast words.';

/** A session with a turn started and `upTo` characters of REPLY streamed in 5-char deltas. */
function streamed(upTo: number): SessionState {
  const actions: SessionAction[] = [
    attach({ seq: 0, messages: [stored('user', 'earlier'), stored('assistant', 'earlier reply')] }),
    ev('turn.start', 1, { prompt_id: 'p', text: 'go' }),
    ev('message.start', 2),
  ];
  let seq = 3;
  for (let i = 0; i < upTo; i += 5)
    actions.push(ev('message.delta', seq++, { text: REPLY.slice(i, Math.min(upTo, i + 5)) }));
  return run(actions);
}

describe('a reply printed in parts while it streams', () => {
  it('prints each finished block once, keeps the growing one live, and ends with the rest', () => {
    const mid = streamed(REPLY.indexOf('with two'));
    expect(printed(mid).slice(2)).toEqual(['user', 'part:First paragraph.']);
    expect(mid.streaming!.text.slice(mid.streaming!.scan.cut)).toBe('Second paragraph\n');
    const all = streamed(REPLY.length);
    expect(printed(all).slice(4)).toEqual([
      'part:Second paragraph\nwith two lines.',
      'part:```sh\nls\n\npwd\n```',
    ]);
    expect(all.streaming!.text.slice(all.streaming!.scan.cut)).toBe('Last words.');
    const done = run([ev('message.complete', 99, { text: REPLY, status: 'complete' })], all);
    expect(done.streaming).toBeNull();
    expect(done.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Last words.', whole: REPLY });
    expect(done.lastReply).toBe(REPLY);
    // the parts joined with blank lines are the reply as sent
    const parts = done.items.flatMap((i) => (i.kind === 'assistant' && i.n > 2 ? [i.text] : []));
    expect(parts.join('\n\n')).toBe(REPLY);
  });

  it('keeps the status note on the last item and prints the whole reply when it was rewritten', () => {
    const all = streamed(REPLY.length);
    const cut = run(
      [ev('message.complete', 99, { text: REPLY.slice(0, 40), status: 'interrupted' })],
      streamed(REPLY.indexOf('with two')),
    );
    expect(cut.items.at(-1)).toMatchObject({
      text: REPLY.slice(REPLY.indexOf('Second'), 40),
      status: 'interrupted',
    });
    const rewritten = run([ev('message.complete', 99, { text: 'Something else.', status: 'complete' })], all);
    expect(printed(rewritten).at(-1)).toBe('reply:Something else.');
  });

  it('notes a reply interrupted before any text came; an empty complete reply adds nothing', () => {
    const waiting = streamed(0);
    const cut = run([ev('message.complete', 99, { text: '', status: 'interrupted' })], waiting);
    expect(cut.items.at(-1)).toMatchObject({ kind: 'notice', text: '(interrupted)' });
    const empty = run([ev('message.complete', 99, { text: '', status: 'complete' })], waiting);
    expect(empty.items).toHaveLength(waiting.items.length);
  });

  it('matches the end of a reply printed in parts with its stored message on a reconnect', () => {
    const done = run(
      [ev('message.complete', 99, { text: REPLY, status: 'complete' })],
      streamed(REPLY.length),
    );
    const again = reattach(done, [stored('assistant', REPLY)]);
    expect(printed(again)).toEqual(printed(done)); // nothing new, no "some messages are not shown"
    expect(itemKey(done.items.at(-1)!)).toBe(`a:${REPLY}`);
  });

  it('on a reconnect mid-reply continues the parts where they stopped', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    const again = reattach(mid, [], REPLY.slice(0, REPLY.indexOf('Last') + 2));
    expect(printed(again).slice(printed(mid).length)).toEqual(['part:```sh\nls\n\npwd\n```']);
    expect(again.streaming!.text.slice(again.streaming!.scan.cut)).toBe('La');
  });

  it('when the reply finished while away, prints only its rest', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    const again = reattach(mid, [stored('assistant', REPLY), stored('user', 'next')]);
    expect(printed(again).slice(printed(mid).length)).toEqual([
      `reply:${REPLY.slice(REPLY.indexOf('```'))}`,
      'user',
    ]);
    expect(again.streaming).toBeNull();
    expect(again.lastReply).toBe(REPLY);
  });

  it('a TUI attaching mid-reply prints the finished blocks of the in-flight text at once', () => {
    const s = run([
      attach({
        session: sessionInfo({ busy: true }),
        messages: [stored('user', 'go')],
        inflight: { prompt: 'go', text: 'One.\n\nTwo.\n\nThr', reasoning: '', tools: [], started_at: 1 },
      }),
    ]);
    expect(printed(s)).toEqual(['user', 'part:One.\n\nTwo.']);
    expect(s.streaming!.text.slice(s.streaming!.scan.cut)).toBe('Thr');
  });
});

describe('a reply printed in parts whose model call restarted (message.start mid-reply)', () => {
  /** `s` with `text` streamed in 5-char deltas from seq `seq`. */
  const deltas = (s: SessionState, text: string, seq: number): SessionState =>
    run(
      Array.from({ length: Math.ceil(text.length / 5) }, (_, i) =>
        ev('message.delta', seq + i, { text: text.slice(i * 5, i * 5 + 5) }),
      ),
      s,
    );
  const assistantTexts = (s: SessionState, from: number): string[] =>
    s.items.slice(from).flatMap((i) => (i.kind === 'assistant' ? [i.text] : []));

  it('does not print the blocks of the failed attempt again when the retry streams the same text', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    const before = mid.items.length;
    const restarted = run([ev('message.start', 500)], mid);
    // nothing of the new attempt is live while it repeats what is printed already
    const early = deltas(restarted, REPLY.slice(0, 10), 501);
    expect(liveText(early.streaming!)).toBe('');
    const again = deltas(restarted, REPLY, 501);
    const done = run([ev('message.complete', 900, { text: REPLY, status: 'complete' })], again);
    const texts = assistantTexts(done, before - 2);
    expect(texts.join('\n\n')).toBe(REPLY);
    expect(done.items.at(-1)).toMatchObject({ whole: REPLY });
    expect(done.lastReply).toBe(REPLY);
  });

  it('says so and prints the new attempt whole when the retry streams another text', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    const before = mid.items.length;
    const other = 'Another answer.\n\nIn two blocks.';
    const again = deltas(run([ev('message.start', 500)], mid), other, 501);
    const done = run([ev('message.complete', 900, { text: other, status: 'complete' })], again);
    const tail = done.items.slice(before);
    expect(tail[0]).toMatchObject({ kind: 'notice' });
    expect(assistantTexts(done, before).join('\n\n')).toBe(other);
    expect(done.lastReply).toBe(other);
  });

  it('continues the parts on a reconnect while the retry still repeats the printed text', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    const before = mid.items.length;
    const restarted = deltas(run([ev('message.start', 500)], mid), REPLY.slice(0, 10), 501);
    const again = run(
      [
        attach({
          seq: 600,
          session: sessionInfo({ busy: true }),
          messages: [stored('user', 'earlier'), stored('assistant', 'earlier reply'), stored('user', 'go')],
          inflight: { prompt: 'go', text: REPLY, reasoning: '', tools: [], started_at: 1 },
        }),
      ],
      restarted,
    );
    const done = run([ev('message.complete', 900, { text: REPLY, status: 'complete' })], again);
    expect(assistantTexts(done, before - 2).join('\n\n')).toBe(REPLY);
  });
});

describe('a reply printed in parts when the daemon died mid-reply', () => {
  it('does not print it again when its stored text is shorter than what was printed', () => {
    const mid = streamed(REPLY.indexOf('pwd'));
    // the last checkpoint of the partial reply was written before the last parts streamed
    const again = run(
      [
        attach({
          seq: 0,
          messages: [
            stored('user', 'earlier'),
            stored('assistant', 'earlier reply'),
            stored('user', 'go'),
            { ...stored('assistant', REPLY.slice(0, 8)), status: 'streaming' },
          ],
        }),
      ],
      mid,
    );
    expect(printed(again).slice(printed(mid).length)).toEqual(['notice']);
    expect(again.items.at(-1)).toMatchObject({ text: '(interrupted)' });
    expect(again.streaming).toBeNull();
    // /copy copies that reply as stored, not the one before it
    expect(again.lastReply).toBe(REPLY.slice(0, 8));
  });
});
