import { describe, expect, it } from 'vitest';
import { mentionsBot, parseMessage, parseReaction, stripMention, stripReplyFallback } from './events.js';

const ev = (content: Record<string, unknown>, type = 'm.room.message') => ({
  event_id: '$1',
  type,
  sender: '@ann:x',
  content,
});
const me = { userId: '@hermes:x', names: ['Hermes', 'hermes'] };

describe('Matrix events', () => {
  it('reads text, threads, notices and edits', () => {
    expect(parseMessage(ev({ msgtype: 'm.text', body: 'hi' }))).toEqual({ text: 'hi', notice: false });
    expect(
      parseMessage(
        ev({ msgtype: 'm.text', body: 'x', 'm.relates_to': { rel_type: 'm.thread', event_id: '$root' } }),
      ),
    ).toMatchObject({ threadId: '$root' });
    expect(parseMessage(ev({ msgtype: 'm.notice', body: 'bot' }))!.notice).toBe(true);
    expect(
      parseMessage(
        ev({ msgtype: 'm.text', body: '* x', 'm.relates_to': { rel_type: 'm.replace', event_id: '$1' } }),
      ),
    ).toBeUndefined();
    expect(stripReplyFallback('> <@bob:x> earlier\n> more\n\nmy answer')).toBe('my answer');
    expect(
      parseMessage(
        ev({
          msgtype: 'm.text',
          body: '> <@b:x> q\n\nyes',
          'm.relates_to': { 'm.in_reply_to': { event_id: '$q' } },
        }),
      ),
    ).toEqual({ text: 'yes', replyTo: '$q', notice: false });
  });

  it('reads attachments: a caption beside a file name, voice notes', () => {
    expect(
      parseMessage(
        ev({
          msgtype: 'm.file',
          body: 'see this',
          filename: 'a.pdf',
          url: 'mxc://s/1',
          info: { mimetype: 'application/pdf', size: 3 },
        }),
      ),
    ).toEqual({
      text: 'see this',
      attachment: { kind: 'document', mxc: 'mxc://s/1', name: 'a.pdf', mime: 'application/pdf', size: 3 },
      notice: false,
    });
    expect(parseMessage(ev({ msgtype: 'm.image', body: 'b.png', url: 'mxc://s/2' }))).toMatchObject({
      text: '',
      attachment: { kind: 'image', name: 'b.png' },
    });
    expect(
      parseMessage(
        ev({ msgtype: 'm.audio', body: 'v.ogg', url: 'mxc://s/3', 'org.matrix.msc3245.voice': {} }),
      )!.attachment!.kind,
    ).toBe('voice');
  });

  it('mentions and reactions', () => {
    expect(mentionsBot(ev({ 'm.mentions': { user_ids: ['@hermes:x'] } }), 'anything', me)).toBe(true);
    expect(mentionsBot(ev({}), 'Hermes: hello', me)).toBe(true);
    expect(mentionsBot(ev({}), 'hello there', me)).toBe(false);
    expect(stripMention('@hermes:x what now', me)).toBe('what now');
    expect(stripMention('Hermes, what now', me)).toBe('what now');
    expect(
      parseReaction(
        ev({ 'm.relates_to': { rel_type: 'm.annotation', event_id: '$q', key: '✅\uFE0F' } }, 'm.reaction'),
      ),
    ).toEqual({
      target: '$q',
      key: '✅',
    });
  });
});
