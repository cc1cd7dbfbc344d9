import { describe, expect, it } from 'vitest';
import { choiceOf, permissionOptions } from './permission.js';

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
});
