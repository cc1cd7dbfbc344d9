import { describe, expect, it } from 'vitest';
import {
  messageIds,
  outgoingMessageId,
  replyReferences,
  replySubject,
  threadRoot,
  threadToken,
} from './thread.js';

describe('threading', () => {
  it('messageIds reads ids from a header value or list, in order, without duplicates', () => {
    expect(messageIds('<a@x> <b@x>\r\n <a@x>')).toEqual(['<a@x>', '<b@x>']);
    expect(messageIds(['<a@x>', '<c@x>'])).toEqual(['<a@x>', '<c@x>']);
    expect(messageIds(undefined)).toEqual([]);
  });

  it('the root is the first reference, else In-Reply-To, else the mail itself', () => {
    expect(threadRoot('<m@x>', ['<r@x>', '<p@x>'], ['<p@x>'])).toBe('<r@x>');
    expect(threadRoot('<m@x>', [], ['<p@x>'])).toBe('<p@x>');
    expect(threadRoot('<m@x>', [], [])).toBe('<m@x>');
  });

  it('threadToken is short, stable and case-blind', () => {
    expect(threadToken('<Root@X>')).toMatch(/^[0-9a-f]{16}$/);
    expect(threadToken('<Root@X>')).toBe(threadToken('<root@x>'));
    expect(threadToken('<a@x>')).not.toBe(threadToken('<b@x>'));
  });

  it('replySubject adds one Re:', () => {
    expect(replySubject('Disk space', 'x')).toBe('Re: Disk space');
    expect(replySubject('Re: Disk space', 'x')).toBe('Re: Disk space');
    expect(replySubject('AW: Platz', 'x')).toBe('AW: Platz');
    expect(replySubject('', 'Message from Hermes')).toBe('Re: Message from Hermes');
  });

  it('replyReferences appends the parent and trims the middle', () => {
    expect(replyReferences(['<r@x>'], '<p@x>')).toEqual(['<r@x>', '<p@x>']);
    expect(replyReferences([], '<p@x>')).toEqual(['<p@x>']);
    const many = Array.from({ length: 30 }, (_, i) => `<${i}@x>`);
    const refs = replyReferences(many, '<p@x>', 5);
    expect(refs).toEqual(['<0@x>', '<27@x>', '<28@x>', '<29@x>', '<p@x>']);
  });

  it('outgoingMessageId is stable per delivery id', () => {
    expect(outgoingMessageId('x.com', 'a|in-1#0')).toBe(outgoingMessageId('x.com', 'a|in-1#0'));
    expect(outgoingMessageId('x.com', 'a|in-1#0')).not.toBe(outgoingMessageId('x.com', 'a|in-1#1'));
    expect(outgoingMessageId('x.com')).toMatch(/^<hermes\.[0-9a-f]{24}@x\.com>$/);
  });
});
