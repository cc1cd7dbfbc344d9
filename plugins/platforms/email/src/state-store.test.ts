import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmailState, MAX_REMEMBERED_MAILS } from './state-store.js';

describe('EmailState', () => {
  it('keeps the mailbox position and thread facts across instances, in a 0600 file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'email-state-')), 'sub', 'state.json');
    const a = new EmailState(file);
    expect(a.positioned).toBe(false);
    a.uidValidity = '42';
    a.lastUid = 17;
    a.remember('<m@x>', { subject: 'Hi', references: ['<r@x>'] });
    a.save();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = new EmailState(file);
    expect(b.positioned).toBe(true);
    expect([b.uidValidity, b.lastUid]).toEqual(['42', 17]);
    expect(b.mail('<m@x>')).toEqual({ subject: 'Hi', references: ['<r@x>'] });
  });

  it('keeps which mails the pipeline took (a copy of one is a redelivery)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'email-state-')), 'state.json');
    const a = new EmailState(file);
    a.remember('<t@x>', { subject: 'T', references: [] });
    a.remember('<u@x>', { subject: 'U', references: [] });
    a.markTaken('<t@x>');
    a.markTaken('<unknown@x>');
    a.save();
    const b = new EmailState(file);
    expect(b.mail('<t@x>')).toEqual({ subject: 'T', references: [], taken: true });
    expect(b.mail('<u@x>')?.taken).toBeUndefined();
    expect(b.mail('<unknown@x>')).toBeUndefined();
  });

  it('a damaged file starts fresh', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'email-state-')), 'state.json');
    writeFileSync(file, '{not json');
    const s = new EmailState(file);
    expect([s.positioned, s.lastUid]).toEqual([false, 0]);
    s.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ lastUid: 0 });
  });

  it('forgets the oldest mails beyond the bound', () => {
    const s = new EmailState();
    for (let i = 0; i <= MAX_REMEMBERED_MAILS; i++) s.remember(`<${i}@x>`, { subject: '', references: [] });
    expect(s.mail('<0@x>')).toBeUndefined();
    expect(s.mail(`<${MAX_REMEMBERED_MAILS}@x>`)).toBeDefined();
  });
});
