import { describe, expect, it } from 'vitest';
import type { ChatSessionIndex, MessageSource, PlatformAdapter } from '@hermes/core/messaging';
import type { WireEvent } from '@hermes/core/protocol';
import type { LiveSession } from '../sessions/live-session.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { Handoffs } from './handoff.js';

function setup(o: { connected?: boolean; previous?: string } = {}) {
  const sent: string[] = [];
  const routes = new Map<string, string>(o.previous ? [['key:111', o.previous]] : []);
  const adapter = {
    maxMessageLength: 4096,
    send: (_chat: string, text: string) => {
      sent.push(text);
      return Promise.resolve({ ok: true });
    },
  } as unknown as PlatformAdapter;
  const store = {
    point: (key: string, id: string) => {
      const before = routes.get(key);
      routes.set(key, id);
      return before;
    },
    forget: (key: string) => routes.delete(key),
  } as unknown as ChatSessionIndex;
  const live = { id: 's1', profile: 'default', info: () => ({ title: 'work' }) } as unknown as LiveSession;
  const registry = {
    get: () => live,
    peek: () => live,
    profile: () => ({ db: { getMessages: () => [{ role: 'assistant', content: 'the last answer' }] } }),
  } as unknown as SessionRegistry;
  const h = new Handoffs({
    route: () =>
      o.connected === false ? undefined : { adapter, store, keyOf: (s: MessageSource) => `key:${s.chatId}` },
    registry: () => registry,
    profile: () => ({ config: { platforms: { telegram: { home_channel: '111' } } }, secrets: {} }) as never,
    log: () => undefined,
  });
  return { h, live, sent, routes };
}

const ev = (type: string, payload: object) => ({ type, session_id: 's1', seq: 1, payload }) as WireEvent;
const flush = () => new Promise((r) => setTimeout(r, 10));

describe('handoff', () => {
  it('points the owner chat at the session, sends a summary, mirrors only the turns the chat did not start', async () => {
    const t = setup({ previous: 'chat-own' });
    expect(await t.h.start('default', 's1', 'telegram')).toMatch(/^Handed off to telegram/);
    expect(t.routes.get('key:111')).toBe('s1');
    expect(t.sent[0]).toMatch(/^Continuing "work" here/);
    expect(t.sent[0]).toContain('the last answer');
    // a terminal turn: its final reply goes to the chat once
    t.h.observe(t.live, ev('turn.start', { prompt_id: 'p1', text: 'x', by: 'c-1' }));
    t.h.observe(t.live, ev('message.complete', { text: 'step', status: 'complete' }));
    t.h.observe(t.live, ev('message.complete', { text: 'final', status: 'complete' }));
    t.h.observe(t.live, ev('turn.end', { prompt_id: 'p1', status: 'complete' }));
    // the chat's own turn: the pipeline delivers it, not the mirror
    t.h.observe(t.live, ev('turn.start', { prompt_id: 'p2', text: 'y', by: 'platform:telegram' }));
    t.h.observe(t.live, ev('message.complete', { text: 'chat reply', status: 'complete' }));
    t.h.observe(t.live, ev('turn.end', { prompt_id: 'p2', status: 'complete' }));
    await flush();
    expect(t.sent.slice(1)).toEqual(['final']);
    // back: the chat's own session is routed again, nothing more is mirrored
    expect(await t.h.stop('default', 's1')).toMatch(/^Back here/);
    expect(t.routes.get('key:111')).toBe('chat-own');
    t.h.observe(t.live, ev('turn.start', { prompt_id: 'p3', text: 'z', by: 'c-1' }));
    t.h.observe(t.live, ev('turn.end', { prompt_id: 'p3', status: 'complete' }));
    await flush();
    expect(t.sent.at(-1)).toMatch(/^Back in the terminal/);
    expect(await t.h.stop('default', 's1')).toBe('This session is not handed off.');
  });

  it('without an earlier chat session the route is dropped at the end; a disconnected platform is said', async () => {
    const t = setup();
    await t.h.start('default', 's1', 'telegram');
    await t.h.stop('default', 's1');
    expect(t.routes.has('key:111')).toBe(false);
    expect(await setup({ connected: false }).h.start('default', 's1', 'telegram')).toMatch(/not connected/);
  });
});
