import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkEventPayload, eventChecksWanted, wireEvent } from './event-check.js';

describe('event payload checks', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are on under vitest or with HERMES_VALIDATE_EVENTS=1, off otherwise', () => {
    expect(eventChecksWanted(process.env)).toBe(true); // this test runs under vitest
    expect(eventChecksWanted({ VITEST: 'true' })).toBe(true);
    expect(eventChecksWanted({ HERMES_VALIDATE_EVENTS: '1' })).toBe(true);
    expect(eventChecksWanted({})).toBe(false);
    expect(eventChecksWanted({ HERMES_VALIDATE_EVENTS: '0' })).toBe(false);
  });

  it('accept a payload that matches its schema', () => {
    expect(() => checkEventPayload('turn.end', { prompt_id: 'p1', status: 'complete' })).not.toThrow();
  });

  it('name the event type and the path of every problem', () => {
    expect(() => checkEventPayload('turn.end', { prompt_id: 7 })).toThrow(
      /^event turn\.end: invalid payload: prompt_id: .*; status: /,
    );
    expect(() =>
      checkEventPayload('tool.complete', {
        tool_id: 't',
        ok: true,
        summary: '',
        duration_ms: 1,
        blocked: { reason: 5 },
      }),
    ).toThrow(/event tool\.complete: invalid payload: blocked\.reason: /);
    expect(() => checkEventPayload('message.delta', 'text')).toThrow(
      /message\.delta: invalid payload: \(payload\): /,
    );
  });

  it('refuse a type that is not in the table', () => {
    expect(() => checkEventPayload('message.deltaa', { text: 'x' })).toThrow(
      'event message.deltaa: not an event type of the protocol',
    );
  });

  it('make wireEvent throw on a wrong payload, after saying so on stderr and to the report sink', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const report: string[] = [];
    // the cast gets a payload past the compiler, as a bug in untyped code would
    const bad = { text: 42 } as unknown as { text: string };
    expect(() => wireEvent('message.delta', 's1', 3, bad, 1000, (l) => report.push(l))).toThrow(
      /^event message\.delta: invalid payload: text: /,
    );
    expect(report).toEqual([expect.stringMatching(/^EVENT SCHEMA VIOLATION: event message\.delta: .*text/)]);
    expect(String(stderr.mock.calls[0]?.[0])).toContain('EVENT SCHEMA VIOLATION: event message.delta');
  });

  it('build the event when the payload is right', () => {
    expect(wireEvent('message.delta', 's1', 3, { text: 'hi' }, 1000)).toEqual({
      type: 'message.delta',
      session_id: 's1',
      seq: 3,
      ts: 1000,
      payload: { text: 'hi' },
    });
  });
});
