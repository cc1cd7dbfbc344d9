/**
 * Regaining the configured nick (nick-regain.ts) on hand-driven timers: the holder's QUIT or
 * NICK change is answered at once, the periodic ISON claims a nick that is free, nothing is sent
 * while the nick is ours, and stop() ends the checks.
 */
import { describe, expect, it } from 'vitest';
import { NickKeeper, type NickTimers } from './nick-regain.js';
import { parseLine } from './protocol.js';

class Timers implements NickTimers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.pending.delete(h as number);
  }
  /** Fires every pending timer once (one interval passes). */
  tick(): void {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, t] of due) t.fn();
  }
}

function setup(current = 'hermes_') {
  const sent: string[] = [];
  const timers = new Timers();
  const me = { nick: current };
  const keeper = new NickKeeper({
    wanted: 'hermes',
    current: () => me.nick,
    send: (l) => sent.push(l),
    intervalMs: 60_000,
    timers,
  });
  const feed = (line: string): void => keeper.onMessage(parseLine(line)!);
  return { keeper, sent, timers, me, feed };
}

describe('NickKeeper', () => {
  it('claims the nick as soon as its holder quits', () => {
    const { keeper, sent, feed } = setup();
    keeper.start();
    feed(':alice!a@h QUIT :bye');
    feed(':hermes!x@h PRIVMSG #c :still here');
    expect(sent).toEqual([]);
    feed(':Hermes!x@h QUIT :Client closed'); // nicks compare case-insensitively
    expect(sent).toEqual(['NICK hermes']);
  });

  it('claims the nick when its holder changes away from it', () => {
    const { keeper, sent, feed } = setup();
    keeper.start();
    feed(':hermes!x@h NICK :squatter2');
    expect(sent).toEqual(['NICK hermes']);
  });

  it('asks ISON every interval and claims the nick when nobody has it', () => {
    const { keeper, sent, timers, feed } = setup();
    keeper.start();
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([60_000]);
    timers.tick();
    expect(sent).toEqual(['ISON hermes']);
    feed(':irc.test 303 hermes_ :hermes'); // still taken
    expect(sent).toEqual(['ISON hermes']);
    timers.tick();
    feed(':irc.test 303 hermes_ :'); // free now
    expect(sent).toEqual(['ISON hermes', 'ISON hermes', 'NICK hermes']);
  });

  it('a refused NICK changes nothing; the next check tries again', () => {
    const { keeper, sent, timers, feed } = setup();
    keeper.start();
    feed(':hermes!x@h QUIT :bye');
    feed(':irc.test 433 hermes_ hermes :Nickname already in use'); // someone was faster
    timers.tick();
    feed(':irc.test 303 hermes_ :');
    expect(sent).toEqual(['NICK hermes', 'ISON hermes', 'NICK hermes']);
  });

  it('sends nothing while the nick is ours, and resumes when it differs again', () => {
    const { keeper, sent, timers, me, feed } = setup('hermes');
    keeper.start();
    expect(keeper.needed).toBe(false);
    timers.tick();
    feed(':hermes!x@h QUIT :bye');
    feed(':irc.test 303 hermes :');
    expect(sent).toEqual([]);
    me.nick = 'hermes_'; // e.g. services renamed us
    timers.tick();
    expect(sent).toEqual(['ISON hermes']);
  });

  it('stop() ends the checks', () => {
    const { keeper, sent, timers, feed } = setup();
    keeper.start();
    keeper.stop();
    expect(timers.pending.size).toBe(0);
    feed(':hermes!x@h QUIT :bye');
    expect(sent).toEqual([]);
  });
});
