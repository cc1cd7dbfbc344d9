import { DaemonConnectError, RpcCallError } from '@hermes/client';
import { describe, expect, it } from 'vitest';
import { failure } from './tool-deps.js';

describe('failure', () => {
  it('says when the daemon could not be reached, and why', () => {
    const r = failure(new DaemonConnectError('timeout', 'no answer within 5000 ms'));
    expect(r).toEqual({
      isError: true,
      content: [
        { type: 'text', text: 'could not reach the Hermes daemon (timeout): no answer within 5000 ms' },
      ],
    });
  });

  it("passes the daemon's own message on (it names the field or the session)", () => {
    const r = failure(new RpcCallError('session.history', -32602, 'before: 0 is not a message id'));
    expect(r.content[0]!.text).toBe('before: 0 is not a message id');
    expect(r.isError).toBe(true);
  });
});
