import { describe, expect, it } from 'vitest';
import { RequestError } from '@agentclientprotocol/sdk';
import { stopReasonOf } from './agent.js';

describe('stopReasonOf', () => {
  it('maps how a turn ended to the ACP stop reason', () => {
    expect(stopReasonOf('complete')).toBe('end_turn');
    expect(stopReasonOf('interrupted')).toBe('cancelled');
    expect(stopReasonOf('max_turns')).toBe('max_turn_requests');
  });

  it('turns an error (or a lost daemon) into a JSON-RPC error carrying the message', () => {
    expect(() => stopReasonOf('error', 'rate limited by the provider')).toThrow(RequestError);
    expect(() => stopReasonOf('error', 'rate limited by the provider')).toThrow(/rate limited/);
    expect(() => stopReasonOf('disconnected')).toThrow(/daemon/);
  });
});
