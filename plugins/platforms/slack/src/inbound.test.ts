import { describe, expect, it } from 'vitest';
import { chatTypeOf, routeMessage, type RouteOptions } from './inbound.js';

const opts = (o: Partial<RouteOptions> = {}): RouteOptions => ({
  botUserId: 'UBOT',
  requireMention: true,
  replyInThread: true,
  inActiveThread: () => false,
  ...o,
});
const ev = (e: Record<string, unknown>) => ({
  type: 'message',
  channel: 'C1',
  user: 'U1',
  ts: '1.000001',
  ...e,
});

describe('routeMessage', () => {
  it('answers DMs always, with the thread kept', () => {
    expect(routeMessage(ev({ channel: 'D1', channel_type: 'im', text: 'hi' }), opts())).toMatchObject({
      chatType: 'dm',
      chatId: 'D1',
      text: 'hi',
    });
    expect(
      routeMessage(ev({ channel: 'D1', channel_type: 'im', text: 'x', thread_ts: '0.5' }), opts()),
    ).toMatchObject({ chatType: 'dm', threadId: '0.5' });
  });

  it('needs a mention in channels, and starts a thread under a top-level message', () => {
    expect(routeMessage(ev({ text: 'hello all' }), opts())).toEqual({ ignore: 'the bot was not mentioned' });
    expect(routeMessage(ev({ text: '<@UBOT> help' }), opts())).toMatchObject({
      chatType: 'thread',
      threadId: '1.000001',
      text: 'help',
      mentioned: true,
    });
    expect(routeMessage(ev({ text: '<@UBOT> help' }), opts({ replyInThread: false }))).toMatchObject({
      chatType: 'channel',
    });
    expect(routeMessage(ev({ text: 'hello all' }), opts({ requireMention: false }))).toMatchObject({
      chatType: 'thread',
    });
  });

  it('a follow-up in a thread the bot is in needs no mention', () => {
    const inThread = ev({ text: 'and then?', thread_ts: '0.9', ts: '1.5' });
    expect(routeMessage(inThread, opts())).toEqual({ ignore: 'the bot was not mentioned' });
    expect(
      routeMessage(inThread, opts({ inActiveThread: (c, t) => c === 'C1' && t === '0.9' })),
    ).toMatchObject({
      chatType: 'thread',
      threadId: '0.9',
      messageId: '1.5',
    });
  });

  it('ignores bots, the bot itself, edits and deletions', () => {
    expect(routeMessage(ev({ text: 'x', bot_id: 'B2' }), opts())).toEqual({ ignore: 'sent by a bot' });
    expect(routeMessage(ev({ text: 'x', user: 'UBOT' }), opts())).toEqual({ ignore: 'sent by a bot' });
    expect(routeMessage(ev({ subtype: 'message_changed' }), opts())).toEqual({
      ignore: 'subtype message_changed',
    });
    expect(routeMessage(ev({ subtype: 'message_deleted' }), opts())).toEqual({
      ignore: 'subtype message_deleted',
    });
  });

  it('chat types from ids and channel types', () => {
    expect(['D1', 'G1', 'C1'].map((c) => chatTypeOf(c))).toEqual(['dm', 'group', 'channel']);
    expect(chatTypeOf('C9', 'mpim')).toBe('group');
  });
});
