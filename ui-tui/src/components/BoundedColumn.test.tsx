import { Box, Text } from 'ink';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { BoundedColumn, ClippedTail } from './BoundedColumn.js';

afterEach(() => cleanup());

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

function Live({ n, max }: { n: number; max: number }): React.JSX.Element {
  return (
    <BoundedColumn maxHeight={max} width={40}>
      <ClippedTail>
        <Text>{lines(n)}</Text>
      </ClippedTail>
      <Box flexShrink={0} flexDirection="column">
        <Text>COMPOSER</Text>
        <Text>STATUS</Text>
      </Box>
    </BoundedColumn>
  );
}

describe('BoundedColumn', () => {
  it('keeps its natural height while the content fits', async () => {
    const r = await renderInk(<Live n={3} max={10} />);
    const f = await r.waitFor('STATUS');
    expect(f.split('\n')).toEqual(['line 1', 'line 2', 'line 3', 'COMPOSER', 'STATUS']);
  });

  it('never grows past maxHeight: the clipped tail gives up its first lines, the rest stays', async () => {
    const r = await renderInk(<Live n={3} max={6} />);
    await r.waitFor('STATUS');
    r.rerender(<Live n={30} max={6} />);
    const f = await r.waitFor('line 30');
    expect(f.split('\n')).toEqual(['line 27', 'line 28', 'line 29', 'line 30', 'COMPOSER', 'STATUS']);
    // a smaller cap (the terminal got shorter) applies to the very next frame
    r.rerender(<Live n={30} max={4} />);
    const g = await r.waitFor((s) => s.split('\n').length === 4);
    expect(g.split('\n')).toEqual(['line 29', 'line 30', 'COMPOSER', 'STATUS']);
  });
});
