import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { ClarifyPrompt } from './ClarifyPrompt.js';

afterEach(() => cleanup());

async function prompt(choices?: string[]) {
  const answers: Array<string | null> = [];
  const r = await renderInk(
    <ClarifyPrompt
      params={{ question: 'Which colour?', ...(choices ? { choices } : {}) }}
      onAnswer={(a) => answers.push(a)}
    />,
  );
  return { r, answers };
}

describe('ClarifyPrompt', () => {
  it('shows the question and numbered choices', async () => {
    const { r } = await prompt(['red', 'blue']);
    expect(r.text()).toContain('? Which colour?');
    expect(r.text()).toContain('1. red');
    expect(r.text()).toContain('2. blue');
  });

  it('picks a choice by its number', async () => {
    const { r, answers } = await prompt(['red', 'blue']);
    await r.press('2');
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['blue']);
  });

  it('sends free text on Enter (digits typed after text are text)', async () => {
    const { r, answers } = await prompt(['red', 'blue']);
    await r.press('g', 'reen 2');
    await r.waitFor('green 2');
    await r.press(keys.enter);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['green 2']);
  });

  it('sends text and Enter typed as one chunk', async () => {
    const { r, answers } = await prompt();
    await r.press('purple\r');
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['purple']);
  });

  it('cancels on Esc', async () => {
    const { r, answers } = await prompt();
    await r.press(keys.esc);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual([null]);
  });
});
