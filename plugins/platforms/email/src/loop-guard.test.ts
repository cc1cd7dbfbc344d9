import { describe, expect, it } from 'vitest';
import { automatedReason, headerView } from './loop-guard.js';

const OWN = ['bot@example.com'];

describe('automatedReason', () => {
  const cases: Array<[string, Record<string, string>, string, string | undefined]> = [
    ['a person’s mail', { subject: 'hi' }, 'alice@example.com', undefined],
    ['Auto-Submitted: no is a person', { 'auto-submitted': 'no' }, 'alice@example.com', undefined],
    [
      'Auto-Submitted: auto-replied',
      { 'auto-submitted': 'auto-replied' },
      'a@x.com',
      'Auto-Submitted: auto-replied',
    ],
    [
      'Auto-Submitted: auto-generated',
      { 'auto-submitted': 'Auto-Generated' },
      'a@x.com',
      'Auto-Submitted: auto-generated',
    ],
    ['X-Autoreply', { 'x-autoreply': 'yes' }, 'a@x.com', 'an auto-reply'],
    ['Precedence: bulk', { precedence: 'bulk' }, 'a@x.com', 'Precedence: bulk'],
    ['Precedence: junk', { precedence: 'junk' }, 'a@x.com', 'Precedence: junk'],
    ['Precedence: list', { precedence: 'list' }, 'a@x.com', 'Precedence: list'],
    ['Precedence: first-class is a person', { precedence: 'first-class' }, 'a@x.com', undefined],
    ['List-Id', { 'list-id': '<ops.example.com>' }, 'a@x.com', 'a mailing-list mail (List-Id)'],
    [
      'List-Unsubscribe',
      { 'list-unsubscribe': '<mailto:u@x>' },
      'a@x.com',
      'a mailing-list mail (List-Unsubscribe)',
    ],
    [
      'multipart/report',
      { 'content-type': 'multipart/report; report-type=delivery-status' },
      'a@x.com',
      'a delivery report (multipart/report)',
    ],
    ['MAILER-DAEMON', {}, 'mailer-daemon@x.com', 'a mail-system sender (mailer-daemon)'],
    ['postmaster', {}, 'postmaster@x.com', 'a mail-system sender (postmaster)'],
    ['noreply', {}, 'no-reply@x.com', 'a mail-system sender (no-reply)'],
    ['empty Return-Path', { 'return-path': '<>' }, 'a@x.com', 'a bounce (empty Return-Path)'],
    ['a normal Return-Path', { 'return-path': '<a@x.com>' }, 'a@x.com', undefined],
    ['the bot’s own address', {}, 'bot@example.com', 'sent by the bot itself'],
    ['the bot’s own address in capitals', {}, 'BOT@example.com', 'sent by the bot itself'],
    ['no sender', {}, '', 'no sender address'],
  ];
  it.each(cases)('%s', (_name, headers, from, expected) => {
    expect(automatedReason(headers, from, OWN)).toBe(expected);
  });
});

describe('headerView', () => {
  it('lower-cases names, unfolds values and keeps the first occurrence', () => {
    expect(
      headerView([
        { key: 'auto-submitted', line: 'Auto-Submitted: auto-replied' },
        { key: 'list-id', line: 'List-Id: Ops\r\n <ops.example.com>' },
        { key: 'auto-submitted', line: 'Auto-Submitted: no' },
      ]),
    ).toEqual({ 'auto-submitted': 'auto-replied', 'list-id': 'Ops <ops.example.com>' });
  });
});
