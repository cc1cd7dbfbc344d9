import { describe, expect, it } from 'vitest';
import { isAutonomousSilence, isIntentionalSilence, isSilenceFor, mayBecomeSilence } from './silence.js';

describe('isIntentionalSilence (interactive: the whole reply is a marker)', () => {
  it.each<[string, string | null | undefined, boolean]>([
    ['NO_REPLY', 'NO_REPLY', true],
    ['[SILENT]', '[SILENT]', true],
    ['with surrounding whitespace', '  NO_REPLY\n', true],
    ['lower case', 'no_reply', true],
    ['bare SILENT with spaces', ' SILENT ', true],
    ['two words', 'no reply', true],
    ['inner whitespace collapses', 'no   reply', true],
    ['edge punctuation', '.NO_REPLY.', true],
    ['markdown emphasis', '*NO_REPLY*', true],
    ['bold marker', '**[静默]**', true],
    ['trailing bangs', 'NO_REPLY!!', true],
    ['trailing full stop', 'NO_REPLY.', true],
    ['CJK bracketed', '[静默]', true],
    ['CJK full-width brackets', '【静默】', true],
    ['CJK full stop', '静默。', true],
    ['CJK other word', '沉默', true],
    ['CJK other word, bold', '**沉默**', true],
    ['CJK full-width brackets, other word', '【沉默】', true],
    ['JSON envelope', '{"action":"NO_REPLY"}', true],
    ['JSON envelope, spaced and lower case', '{ "action": "no_reply" }', true],
    ['JSON envelope with another key', '{"action":"NO_REPLY","note":"x"}', false],
    ['JSON envelope with another action', '{"action":"reply"}', false],
    ['padded with whitespace past 64 chars', `NO_REPLY${' '.repeat(80)}`, true],
    ['mentioned in a sentence', 'I will answer NO_REPLY next time', false],
    ['marker plus text', 'NO_REPLY because nothing changed', false],
    ['prose naming the marker', 'Use [SILENT] when nothing changed', false],
    ['prose naming the CJK marker', 'status: 静默 means the lane is quiet', false],
    ['broken bracket stays structural', '[SILENT', false],
    ['broken bracket at the end', 'SILENT]', false],
    ['an ordinary word', 'Silent films are great.', false],
    ['repeated markers past the cap', 'SILENT '.repeat(20), false],
    ['nine markers in a row', '[SILENT]'.repeat(9), false],
    ['trailing marker is not exact', 'All clear today. [SILENT]', false],
    ['empty reply is not silence', '', false],
    ['whitespace only is not silence', '   ', false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['long text', `${'x'.repeat(70)}NO_REPLY`, false],
  ])('%s', (_n, text, expected) => expect(isIntentionalSilence(text)).toBe(expected));
});

describe('isAutonomousSilence (cron, webhook)', () => {
  it.each<[string, boolean]>([
    ['[SILENT]', true],
    ['[SILENT]\n\nNothing new this tick.', true],
    ['[SILENT]\n\nNothing new.', true],
    ['2 deals filtered\n\n[SILENT]', true],
    ['no_reply\nduplicate inbound, already handled', true],
    ['[SILENT] No changes detected', true],
    ['[静默]\n\nNothing new this tick.', true],
    ['2 deals filtered\n\n[沉默]', true],
    ['静默', true],
    ['All clear today. [SILENT]', true],
    ['2 deals filtered. [静默]', true],
    ['nothing to report. [SILENT].', true],
    ['一切正常。[沉默]', true],
    ['All clear today. ([SILENT])', true],
    ['All clear today. "[SILENT]"', true],
    ['Waiting for the build… [SILENT]', true],
    ['【静默】', true],
    ['静默。', true],
    ['**[静默]**', true],
    ['NO_REPLY.', true],
    ['{"action":"NO_REPLY"}', true],
    ['the lane said 静默 mid-sentence and kept talking', false],
    ['Watchdog probe result: [SILENT]', false],
    ['The agent replied with [静默]', false],
    ['Summary continues, then [SILENT]', false],
    ['the retry stayed silent', false],
    ['nothing to report. NO_REPLY', false],
    ['the update mentions [SILENT] but then continues', false],
    ['the lane said [静默] mid-sentence and kept talking', false],
    ['Silent retry succeeded', false],
    ['Disk at 91% on /dev/sda1', false],
    ['', false],
  ])('%j → %s', (text, expected) => expect(isAutonomousSilence(text)).toBe(expected));

  it('the interactive rule does not take the autonomous forms', () => {
    expect(isSilenceFor('[SILENT]\n\nNothing new.', 'interactive')).toBe(false);
    expect(isSilenceFor('[SILENT]\n\nNothing new.', 'autonomous')).toBe(true);
    expect(isSilenceFor('All clear today. [SILENT]', 'interactive')).toBe(false);
  });
});

describe('mayBecomeSilence (streaming hold-back)', () => {
  it.each<[string, boolean]>([
    ['[', true],
    ['[SIL', true],
    ['N', true],
    ['no_rep', true],
    ['NO', true],
    ['[静', true],
    ['[SILENT]', true],
    ['*NO_', true],
    ['{"action":"NO_', true],
    ['{ "action" :', true],
    ['', false],
    ['Sure!', false],
    ['No problem', false],
    ["Nope, that's", false],
    ['Hello', false],
    ['[SILENT] but', false],
    ['{"result"', false],
    ['x'.repeat(70), false],
    ['NO_REPLYX', false],
    ['静默了吗', false],
  ])('%j → %s', (text, expected) => expect(mayBecomeSilence(text)).toBe(expected));
});
