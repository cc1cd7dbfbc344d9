import { afterEach, describe, expect, it } from 'vitest';
import { WorkingReactions } from './working.js';

const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((s) => s()));

function setup(staleMs = 10_000): { w: WorkingReactions; ops: string[] } {
  const ops: string[] = [];
  const w = new WorkingReactions(async (op, channel, ts) => void ops.push(`${op} ${channel} ${ts}`), staleMs);
  stops.push(() => w.stop());
  return { w, ops };
}

describe('WorkingReactions', () => {
  it('adds once per message and removes once when the reply is there', async () => {
    const { w, ops } = setup();
    await w.typing('C1', '1.1');
    await w.typing('C1', '1.1');
    w.done('C1', '1.1');
    w.done('C1', '1.1');
    w.done('C1', undefined);
    expect(ops).toEqual(['add C1 1.1', 'remove C1 1.1']);
  });

  it('a reaction not renewed is swept off; a renewed one stays', async () => {
    const { w, ops } = setup(150);
    await w.typing('C1', 'old');
    await w.typing('C1', 'live');
    const deadline = Date.now() + 3_000;
    while (!ops.includes('remove C1 old') && Date.now() < deadline) {
      await w.typing('C1', 'live'); // renewed, as the pipeline does while a turn runs
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(ops).toEqual(['add C1 old', 'add C1 live', 'remove C1 old']);
  });
});
