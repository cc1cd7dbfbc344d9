/** A fresh request state starts empty, with zero usage. */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { newPending } from './pending.js';

describe('newPending', () => {
  it('starts with no text, no usage and not done', () => {
    const p = newPending({} as ServerResponse, { id: 'x', model: 'm', created: 0 }, true, true);
    expect(p).toMatchObject({ stream: true, includeUsage: true, texts: [], streamed: '', done: false });
    expect(p.usage).toEqual({ prompt: 0, completion: 0 });
  });
});
