import { describe, expect, it } from 'vitest';
import { choiceOf, clarifyAnswer, clarifyOptions, permissionOptions } from './permission.js';

describe('permission options', () => {
  it('offers one option per approval choice, in order, with the ACP kind', () => {
    expect(permissionOptions(['once', 'session', 'always', 'deny']).map((o) => [o.optionId, o.kind])).toEqual(
      [
        ['once', 'allow_once'],
        ['session', 'allow_always'],
        ['always', 'allow_always'],
        ['deny', 'reject_once'],
      ],
    );
  });

  it('fails closed: a cancelled answer or an option not offered is deny', () => {
    expect(choiceOf({ outcome: 'selected', optionId: 'session' }, ['once', 'session', 'deny'])).toBe(
      'session',
    );
    expect(choiceOf({ outcome: 'selected', optionId: 'always' }, ['once', 'deny'])).toBe('deny');
    expect(choiceOf({ outcome: 'selected', optionId: 'ONCE' }, ['once', 'deny'])).toBe('deny');
    expect(choiceOf({ outcome: 'cancelled' }, ['once', 'deny'])).toBe('deny');
  });

  it('offers a clarify question’s suggested answers and a skip; anything else is no answer', () => {
    const opts = clarifyOptions(['red', 'blue']);
    expect(opts.map((o) => [o.optionId, o.name])).toEqual([
      ['choice-0', 'red'],
      ['choice-1', 'blue'],
      ['skip', 'Skip (answer in your next message)'],
    ]);
    expect(clarifyAnswer({ outcome: 'selected', optionId: 'choice-1' }, ['red', 'blue'])).toBe('blue');
    expect(clarifyAnswer({ outcome: 'selected', optionId: 'skip' }, ['red', 'blue'])).toBeNull();
    expect(clarifyAnswer({ outcome: 'selected', optionId: 'choice-7' }, ['red', 'blue'])).toBeNull();
    expect(clarifyAnswer({ outcome: 'cancelled' }, ['red'])).toBeNull();
  });
});
