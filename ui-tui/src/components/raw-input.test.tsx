import { Text, useInput } from 'ink';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@hermes/client/testing';
import { renderInk } from '../testing/ink.js';
import { useRawInput } from './raw-input.js';

afterEach(() => cleanup());

function Probe({ seen }: { seen: Array<[string, boolean]> }): React.JSX.Element {
  const raw = useRawInput();
  useInput((_input, key) => {
    if (key.delete) seen.push([raw.current, key.delete]);
  });
  return <Text>probe</Text>;
}

describe('useRawInput', () => {
  it('gives the handler the raw sequence of the key it handles (DEL vs ESC [3~)', async () => {
    const seen: Array<[string, boolean]> = [];
    const r = await renderInk(<Probe seen={seen} />);
    await r.press('\u007f', '\u001b[3~');
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([
      ['\u007f', true],
      ['\u001b[3~', true],
    ]);
  });
});
