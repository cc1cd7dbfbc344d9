import { describe, expect, it } from 'vitest';
import { stripQuotedText } from './strip.js';

describe('stripQuotedText', () => {
  const cases: Array<[string, string, string]> = [
    ['plain text stays', 'Hello there.\nSecond line.', 'Hello there.\nSecond line.'],
    ['CRLF is normalised', 'one\r\ntwo\r\n', 'one\ntwo'],
    ['> quoted lines are dropped', 'My answer\n\n> your question\n> more', 'My answer'],
    ['inline replies keep the text between quotes', '> q1\nA1\n> q2\nA2', 'A1\nA2'],
    [
      'Gmail attribution and its quote',
      'Sure, done.\n\nOn Mon, 1 Dec 2026 at 10:00, Bob <bob@example.com> wrote:\n> do it',
      'Sure, done.',
    ],
    [
      'a wrapped attribution line',
      'Yes.\n\nOn Mon, 1 Dec 2026 at 10:00, Bob Builder <bob@example.com>\nwrote:\n> do it',
      'Yes.',
    ],
    ['German attribution', 'Ja.\n\nAm 01.12.2026 um 10:00 schrieb Bob <b@x.de>:\n> mach', 'Ja.'],
    ['French attribution', 'Oui.\n\nLe 1 déc. 2026, Bob <b@x.fr> a écrit :\n> fais', 'Oui.'],
    [
      'Outlook original message',
      'Done.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\nSubject: x\n\nold',
      'Done.',
    ],
    [
      'Outlook header block after a rule',
      'Done.\n\n________________________________\nFrom: Bob <b@x.com>\nSent: Monday\nTo: me\nSubject: x\n\nold',
      'Done.',
    ],
    [
      'Outlook header block without a rule',
      'Done.\n\nFrom: Bob <b@x.com>\nSent: Monday, 1 December\nTo: me\nSubject: x\n\nold',
      'Done.',
    ],
    [
      'a dashed rule above an Outlook header block',
      'Done.\n\n----------------------------------------\nFrom: Bob <b@x.com>\nSent: Monday\nTo: me\n\nold',
      'Done.',
    ],
    [
      'a dashed rule alone is text',
      'Part one\n----------------\nPart two',
      'Part one\n----------------\nPart two',
    ],
    [
      'a "From:" line in the text is kept',
      'From: the top, please.\nThanks',
      'From: the top, please.\nThanks',
    ],
    ['the "-- " signature', 'Thanks!\n-- \nAlice\nOps', 'Thanks!'],
    ['a trimmed "--" signature', 'Thanks!\n--\nAlice', 'Thanks!'],
    ['a phone footer', 'ok\n\nSent from my iPhone', 'ok'],
    ['Get Outlook footer', 'ok\n\nGet Outlook for Android', 'ok'],
    [
      '"wrote:" without a quote after it is text',
      'My colleague wrote:\nthe plan is fine',
      'My colleague wrote:\nthe plan is fine',
    ],
    ['"wrote:" before a quote is history', 'See below.\n\nBob wrote:\n> plan', 'See below.'],
    ['a forwarded block', 'FYI\n\n---------- Forwarded message ---------\nFrom: x', 'FYI'],
    ['only a quote leaves nothing', '> just quoted', ''],
    [
      'a slash command survives its quote',
      '/approve\n\nOn Sat, 5 Dec 2026, Hermes <b@x> wrote:\n> Approval needed',
      '/approve',
    ],
    ['blank runs collapse', 'a\n\n> q\n\nb', 'a\n\nb'],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(stripQuotedText(input)).toBe(expected);
  });
});
