import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { wrapWords } from './format.js';
import { MessageView } from './MessageView.js';

afterEach(() => cleanup());

describe('MessageView: notices', () => {
  it('wraps a long notice at spaces, with no space at the start of a line', async () => {
    const text =
      'No model is configured for profile "default" yet. Choose a provider below: a local server, ' +
      'OpenRouter or OpenAI with an API key, or any OpenAI-compatible base URL.';
    const r = await renderInk(<MessageView item={{ n: 0, kind: 'notice', text, tone: 'warn' }} width={40} />);
    const lines = r.text().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) {
      expect(l.startsWith(' ')).toBe(false);
      expect(l.length).toBeLessThanOrEqual(40);
    }
    expect(lines.join(' ')).toBe(text);
  });
});

describe('wrapWords', () => {
  it('keeps each line’s indentation, adds a hanging indent, cuts words longer than the width', () => {
    expect(wrapWords('  /setup  choose a provider and model for this profile', 24, 9)).toBe(
      [
        '  /setup  choose a',
        '           provider and',
        '           model for',
        '           this profile',
      ].join('\n'),
    );
    expect(wrapWords('a\n\nb', 20)).toBe('a\n\nb');
    // aligned columns stay aligned, also on a line that wraps
    expect(wrapWords('  /new      start a session', 40)).toBe('  /new      start a session');
    expect(wrapWords('  /new      start a new session now', 24)).toBe(
      '  /new      start a new\n  session now',
    );
    expect(wrapWords('x'.repeat(25), 10)).toBe(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)].join('\n'));
  });
});
