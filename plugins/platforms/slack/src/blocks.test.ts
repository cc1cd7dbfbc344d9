import { describe, expect, it } from 'vitest';
import {
  answeredBlocks,
  approvalBlocks,
  clarifyBlocks,
  parseButtonValue,
  SECTION_MAX_CHARS,
} from './blocks.js';

describe('question blocks', () => {
  it('an approval has its command escaped and one button per allowed choice', () => {
    const blocks = approvalBlocks(
      { requestId: 'r1', command: 'rm -rf <dir>', description: 'deletes', choices: ['once', 'deny'] },
      'k1',
    );
    const section = (blocks[0] as { text: { text: string } }).text.text;
    expect(section).toContain('rm -rf &lt;dir&gt;');
    expect(section).toContain('*Reason:* deletes');
    const buttons = (
      blocks[1] as { elements: Array<{ text: { text: string }; value: string; style?: string }> }
    ).elements;
    expect(buttons.map((b) => [b.text.text, b.value, b.style])).toEqual([
      ['✅ Approve once', 'k1:0', 'primary'],
      ['❌ Deny', 'k1:1', 'danger'],
    ]);
  });

  it('a huge command or diff stays within a section', () => {
    const blocks = approvalBlocks(
      {
        requestId: 'r',
        command: 'x'.repeat(9000),
        description: 'd',
        choices: ['once'],
        diff: 'y'.repeat(9000),
      },
      'k',
    );
    expect((blocks[0] as { text: { text: string } }).text.text.length).toBeLessThanOrEqual(SECTION_MAX_CHARS);
  });

  it('clarify choices become buttons; an answer replaces them with who answered', () => {
    const blocks = clarifyBlocks({ requestId: 'r', question: 'Which?', choices: ['red', 'blue'] }, 'k2');
    expect((blocks[1] as { elements: Array<{ value: string }> }).elements.map((e) => e.value)).toEqual([
      'k2:0',
      'k2:1',
    ]);
    const done = answeredBlocks('approval', 'sec', 'once', 'by <@U1>');
    expect(done).toHaveLength(2);
    expect(JSON.stringify(done[1])).toContain('✅ Approved once by <@U1>');
    expect(parseButtonValue('k2:1')).toEqual({ token: 'k2', index: 1 });
    expect(parseButtonValue('evil')).toBeUndefined();
  });
});
