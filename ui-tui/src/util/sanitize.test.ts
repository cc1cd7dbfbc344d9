import { describe, expect, it } from 'vitest';
import { cleanText, stripControls } from './sanitize.js';

describe('sanitize', () => {
  it('removes escape sequences’ controls, CR, BEL, C1 and bidi overrides; keeps tab and newline', () => {
    const hostile = 'a\u001b]52;c;ZXZpbA==\u0007b\rc\u009bd\u202efdp.exe\u2066x\u2069';
    expect(stripControls(hostile)).toBe('a]52;c;ZXZpbA==bcdfdp.exex');
    expect(stripControls('a\tb\nc')).toBe('a\tb\nc');
    expect(cleanText('a\tb')).toBe('a  b');
  });
});
