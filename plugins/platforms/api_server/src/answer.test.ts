import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '@hermes/core';
import { finishAnswer, writeText, writeTurnEvent } from './answer.js';
import { MemoryResponseStore } from './response-store.js';
import { newPending, type Pending } from './pending.js';

/** A response that records what is written to it. */
function fakeRes(): ServerResponse & { written: string[]; status?: number; body?: string } {
  const res = {
    written: [] as string[],
    destroyed: false,
    headersSent: false,
    write(s: string) {
      this.written.push(s);
      return true;
    },
    writeHead(status: number) {
      (this as { status?: number }).status = status;
      this.headersSent = true;
      return this;
    },
    end(s?: string) {
      if (s) (this as { body?: string }).body = s;
      return this;
    },
  };
  return res as unknown as ServerResponse & { written: string[]; status?: number; body?: string };
}

const ev = (type: string, payload: Record<string, unknown> = {}): TurnEvent =>
  ({ type, payload }) as TurnEvent;

/** The `content` of each streamed chunk. */
const contents = (res: { written: string[] }): string[] =>
  res.written
    .filter((w) => w.startsWith('data: {'))
    .map(
      (w) =>
        (JSON.parse(w.slice(6)) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta
          ?.content,
    )
    .filter((c): c is string => c !== undefined);

function pending(stream: boolean): { p: Pending; res: ReturnType<typeof fakeRes> } {
  const res = fakeRes();
  return { p: newPending(res, { id: 'c1', model: 'm', created: 0 }, stream, true), res };
}

describe('writeTurnEvent / writeText', () => {
  it('streams deltas, separates messages, and does not repeat a streamed reply', () => {
    const { p, res } = pending(true);
    writeTurnEvent(p, ev('message.start'));
    writeTurnEvent(p, ev('message.delta', { text: 'Hello' }));
    writeTurnEvent(p, ev('message.start'));
    writeTurnEvent(p, ev('message.delta', { text: 'again' }));
    writeText(p, 'Hello\n\nagain\n\n(footer)', { kind: 'reply' } as never);
    expect(contents(res)).toEqual(['Hello', '\n\nagain', '\n\n(footer)']);
    expect(p.texts).toEqual(['Hello\n\nagain\n\n(footer)']);
  });

  it('a held first message (it could have become a marker) is sent before the next one, apart', () => {
    const { p, res } = pending(true);
    writeTurnEvent(p, ev('message.start'));
    writeTurnEvent(p, ev('message.delta', { text: 'No' }));
    writeTurnEvent(p, ev('message.complete', { text: 'No' }));
    writeTurnEvent(p, ev('message.start'));
    writeTurnEvent(p, ev('message.delta', { text: 'I checked.' }));
    expect(contents(res).join('')).toBe('No\n\nI checked.');
  });

  it('a marker message, or a failed attempt’s held text, is never sent', () => {
    const marker = pending(true);
    writeTurnEvent(marker.p, ev('message.start'));
    writeTurnEvent(marker.p, ev('message.delta', { text: 'NO_REPLY' }));
    writeTurnEvent(marker.p, ev('message.complete', { text: 'NO_REPLY' }));
    writeTurnEvent(marker.p, ev('message.start'));
    writeTurnEvent(marker.p, ev('message.delta', { text: 'Done.' }));
    expect(contents(marker.res).join('')).toBe('Done.');

    const restart = pending(true);
    writeTurnEvent(restart.p, ev('message.start'));
    writeTurnEvent(restart.p, ev('message.delta', { text: 'N' }));
    writeTurnEvent(restart.p, ev('message.start')); // the call failed mid-stream and starts over
    writeTurnEvent(restart.p, ev('message.delta', { text: 'Fresh answer.' }));
    expect(contents(restart.res).join('')).toBe('Fresh answer.');
  });

  it('records a failure but not a notice, and sums usage', () => {
    const { p } = pending(false);
    writeTurnEvent(p, ev('error', { message: 'told once', kind: 'notice' }));
    expect(p.error).toBeUndefined();
    writeTurnEvent(p, ev('message.complete', { usage: { prompt_tokens: 3, completion_tokens: 2 } }));
    writeTurnEvent(p, ev('error', { message: 'slow down', kind: 'rate_limit' }));
    expect(p.error).toEqual({ message: 'slow down', kind: 'rate_limit' });
    expect(p.usage).toMatchObject({ prompt: 3, completion: 2 });
  });
});

describe('finishAnswer', () => {
  it('answers once: a rate-limited turn is a 429 error, never a 200', () => {
    const { p, res } = pending(false);
    finishAnswer(p, { message: 'slow down', kind: 'rate_limit' }, new MemoryResponseStore());
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body!)).toMatchObject({ error: { message: 'slow down' } });
    finishAnswer(p, undefined, new MemoryResponseStore());
    expect(res.status).toBe(429);
  });

  it('ends a stream with the stop chunk, the usage and [DONE]', () => {
    const { p, res } = pending(true);
    finishAnswer(p, undefined, new MemoryResponseStore());
    expect(res.written.at(-1)).toBe('data: [DONE]\n\n');
    expect(res.written.some((w) => w.includes('"finish_reason":"stop"'))).toBe(true);
    expect(res.written.some((w) => w.includes('"usage"'))).toBe(true);
  });
});
