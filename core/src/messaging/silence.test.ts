import { describe, expect, it } from 'vitest';
import { isIntentionalSilence } from './silence.js';

describe('isIntentionalSilence', () => {
  it.each<[string, string | null | undefined, boolean]>([
    ['NO_REPLY', 'NO_REPLY', true],
    ['[SILENT]', '[SILENT]', true],
    ['with surrounding whitespace', '  NO_REPLY\n', true],
    ['lower case is text', 'no_reply', false],
    ['mentioned in a sentence', 'I will answer NO_REPLY next time', false],
    ['marker plus text', 'NO_REPLY because nothing changed', false],
    ['empty reply is not silence', '', false],
    ['whitespace only is not silence', '   ', false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['long text', `${'x'.repeat(70)}NO_REPLY`, false],
    ['padded past 64 chars', `NO_REPLY${' '.repeat(80)}`, false],
  ])('%s', (_n, text, expected) => expect(isIntentionalSilence(text)).toBe(expected));
});
