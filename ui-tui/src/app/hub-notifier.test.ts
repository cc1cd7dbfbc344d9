import { describe, expect, it } from 'vitest';
import type { LiveSessionStatus, WireEvent } from '@hermes/core/protocol';
import { DEFAULT_NOTIFY, HubNotifier, notificationBytes, notificationFor } from './hub-notifier.js';

const row = (o: Partial<LiveSessionStatus>): LiveSessionStatus => ({
  profile: 'default',
  session_id: 's1',
  title: 'Build',
  source: 'telegram',
  origin: 'platform',
  state: 'idle',
  turn_started_at: null,
  tokens: 0,
  cost_usd: null,
  clients: 0,
  updated_at: 0,
  ...o,
});
const changed = (sessions: LiveSessionStatus[], removed: string[] = []): WireEvent =>
  ({ type: 'status.changed', session_id: '*', seq: 0, payload: { sessions, removed, at: 0 } }) as WireEvent;

describe('hub notifications', () => {
  it('bell, OSC 9 and OSC 777; wrapped for tmux with inner ESCs doubled; text cannot inject a sequence', () => {
    const plain = notificationBytes('T', 'rm x\u001b]52;c;evil\u0007', DEFAULT_NOTIFY, {});
    expect(plain).toBe('\u0007\u001b]9;T: rm x ]52 c evil \u0007\u001b]777;notify;T;rm x ]52 c evil \u0007');
    const tmux = notificationBytes('T', 'b', DEFAULT_NOTIFY, { TMUX: '/tmp/tmux-0/default,1,0' });
    expect(tmux).toBe(
      '\u0007\u001bPtmux;\u001b\u001b]9;T: b\u0007\u001b\\\u001bPtmux;\u001b\u001b]777;notify;T;b\u0007\u001b\\',
    );
    expect(notificationBytes('T', 'b', { ...DEFAULT_NOTIFY, osc: false }, {})).toBe('\u0007');
    expect(notificationBytes('T', 'b', { ...DEFAULT_NOTIFY, bell: false, osc: false }, {})).toBe('');
  });

  it('rings when a session starts waiting; done only when configured', () => {
    const waiting = row({ state: 'approval', command: 'rm -rf dist' });
    expect(notificationFor(row({ state: 'working' }), waiting, DEFAULT_NOTIFY)?.body).toBe(
      'Build: rm -rf dist',
    );
    expect(notificationFor(waiting, waiting, DEFAULT_NOTIFY)).toBeUndefined(); // once per wait
    expect(
      notificationFor(undefined, row({ state: 'clarify', question: 'which?' }), DEFAULT_NOTIFY)?.title,
    ).toMatch(/question \(telegram, default\)/);
    expect(notificationFor(row({ state: 'working' }), row({}), DEFAULT_NOTIFY)).toBeUndefined();
    expect(
      notificationFor(row({ state: 'working' }), row({}), { ...DEFAULT_NOTIFY, done: true })?.title,
    ).toMatch(/done/);
    expect(notificationFor(undefined, waiting, { ...DEFAULT_NOTIFY, approval: false })).toBeUndefined();
  });

  it('follows the feed from the snapshot, never for the session it shows, with the profile settings', async () => {
    const out: string[] = [];
    const calls: string[] = [];
    const n = new HubNotifier({
      client: {
        request: ((method: string) => {
          calls.push(method);
          if (method === 'config.get') return Promise.resolve({ value: { bell: false } });
          return Promise.resolve({
            sessions: [row({ session_id: 'a', state: 'approval', command: 'x' })],
            at: 0,
          });
        }) as never,
      },
      current: () => 'mine',
      write: (b) => out.push(b),
      env: {},
    });
    await n.connected();
    expect(calls).toEqual(['config.get', 'status.subscribe']);
    n.event(changed([row({ session_id: 'a', state: 'approval', command: 'x' })])); // still the same wait
    n.event(changed([row({ session_id: 'mine', state: 'approval', command: 'y' })])); // shown here
    expect(out).toEqual([]);
    n.event(changed([row({ session_id: 'b', state: 'approval', command: 'z' })]));
    expect(out).toHaveLength(1);
    expect(out[0]!.startsWith('\u0007')).toBe(false); // bell: false from the config
    expect(out[0]).toContain('Build: z');
  });
});
