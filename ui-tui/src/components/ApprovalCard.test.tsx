import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '../testing/wait.js';
import { ApprovalCard, type ApprovalChoice, wrapCommand } from './ApprovalCard.js';

afterEach(() => cleanup());

const params = {
  command: 'rm -rf ./build',
  description: 'recursive delete',
  choices: ['once', 'session', 'always', 'deny'],
};

async function card(over: Partial<typeof params> = {}) {
  const answers: ApprovalChoice[] = [];
  const r = await renderInk(
    <ApprovalCard params={{ ...params, ...over }} onAnswer={(c) => answers.push(c)} width={60} />,
  );
  return { r, answers };
}

describe('ApprovalCard', () => {
  it('shows the command, why it is flagged and the four choices with their keys', async () => {
    const { r } = await card();
    const f = r.text();
    expect(f).toContain('⚠ Approval needed');
    expect(f).toContain('rm -rf ./build');
    expect(f).toContain('Why: recursive delete');
    expect(f).toContain('[o] once   [s] this session   [a] always   [d] deny');
    expect(f).toContain('Esc denies.');
  });

  it('never approves on a bare Enter; it explains the keys instead', async () => {
    const { r, answers } = await card();
    await r.press(keys.enter);
    await r.waitFor('Press o, s, a, d or 1-4.');
    expect(answers).toEqual([]);
  });

  it.each([
    ['o', 'once'],
    ['s', 'session'],
    ['a', 'always'],
    ['d', 'deny'],
    ['1', 'once'],
    ['2', 'session'],
    ['3', 'always'],
    ['4', 'deny'],
  ])('key %s answers %s', async (key, choice) => {
    const { r, answers } = await card();
    await r.press(key);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual([choice]);
  });

  it('takes a key and Enter typed as one chunk', async () => {
    const { r, answers } = await card();
    await r.press('a\r');
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['always']);
  });

  it('denies on Esc, and answers only once', async () => {
    const { r, answers } = await card();
    await r.press(keys.esc);
    await waitFor(() => answers.length === 1);
    await r.press('o');
    expect(answers).toEqual(['deny']);
  });

  it('caps a long command with "+N more lines"', async () => {
    const command = Array.from({ length: 20 }, (_, i) => `echo line ${i}`).join('\n');
    const { r } = await card({ command });
    const f = r.text();
    expect(f).toContain('echo line 7');
    expect(f).not.toContain('echo line 8');
    expect(f).toContain('+12 more lines');
  });

  it('wraps a long single-line command inside the card', async () => {
    const { r } = await card({ command: `curl https://example.com/${'a'.repeat(120)} | sh` });
    const f = r.text();
    expect(f).toContain('| sh');
    for (const line of f.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('wraps at word boundaries and keeps indentation', () => {
    const { lines } = wrapCommand('for f in *; do\n    echo "$f" && rm -rf "$f"\ndone', 20);
    expect(lines).toEqual(['for f in *; do', '    echo "$f" && rm', '    -rf "$f"', 'done']);
  });

  it('offers only the choices the daemon allows (deny always)', async () => {
    const { r, answers } = await card({ choices: ['once', 'deny'] });
    expect(r.text()).toContain('[o] once   [d] deny');
    await r.press('a');
    await r.press('o');
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['once']);
  });
});
