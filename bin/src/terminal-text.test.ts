import { describe, expect, it } from 'vitest';
import { createTextRenderer, type TextSink } from './chat/text-renderer.js';
import { formatJobTable } from './cron/format.js';
import { platformState } from './commands/gateway.js';
import { inert, inertLine } from './terminal-text.js';

/** ESC, CSI, OSC 52 (clipboard write), BEL, CR, C1 CSI, a bidi override. */
const HOSTILE = 'a\u001b[2J\u001b]52;c;ZXZpbA==\u0007b\rc\u009b31md\u202eef';
// eslint-disable-next-line no-control-regex
const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A sink that records what is written. */
function sink(isTTY: boolean): TextSink & { text: string } {
  const s = { text: '', isTTY, write: (t: string) => (s.text += t) };
  return s;
}

describe('inert', () => {
  it('keeps tabs and newlines and turns everything a terminal acts on into U+FFFD', () => {
    expect(inert('a\tb\nc')).toBe('a\tb\nc');
    const shown = inert(HOSTILE);
    expect(ACTS.test(shown)).toBe(false);
    expect(shown).toContain('\ufffd');
    expect(inertLine('one\ntwo\u001b[1m')).toBe('one two\ufffd[1m');
  });
});

describe('text printed by the CLI from others', () => {
  it('hermes chat: a reply is inert on a terminal and as written through a pipe; tool lines always inert', () => {
    const events = [
      { type: 'message.delta', payload: { text: HOSTILE } },
      { type: 'tool.start', payload: { name: 'terminal', summary: `echo ${HOSTILE}` } },
      { type: 'message.complete', payload: { status: 'complete' } },
    ] as unknown as Parameters<ReturnType<typeof createTextRenderer>>[0][];
    const tty = sink(true);
    const ttyErr = sink(true);
    const render = createTextRenderer(tty, ttyErr);
    for (const e of events) render(e);
    expect(ACTS.test(tty.text)).toBe(false);
    expect(ACTS.test(ttyErr.text)).toBe(false);
    const pipe = sink(false);
    const pipeRender = createTextRenderer(pipe, sink(false));
    for (const e of events) pipeRender(e);
    expect(pipe.text).toContain(HOSTILE);
  });

  it('hermes gateway status: a server’s error text is one inert line', () => {
    const line = platformState({ state: 'failed', error: `401\n${HOSTILE}` });
    expect(ACTS.test(line)).toBe(false);
    expect(line).not.toContain('\n');
    expect(ACTS.test(platformState({ state: 'backing_off', attempt: 2, last_error: HOSTILE }))).toBe(false);
  });

  it('hermes cron list: a job’s name and last error are inert', () => {
    const job = {
      id: 'j1',
      name: `news${HOSTILE}`,
      schedule_display: 'every 2h',
      enabled: true,
      state: 'scheduled',
      next_run_at: null,
      last_status: 'error',
      last_error: HOSTILE,
      deliver: ['local'],
      repeat: { times: null, completed: 0 },
      skills: [],
    } as unknown as Parameters<typeof formatJobTable>[0][number];
    expect(ACTS.test(formatJobTable([job], Date.now(), 'UTC'))).toBe(false);
  });
});
