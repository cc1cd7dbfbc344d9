import { describe, expect, it } from 'vitest';
import { RpcErrorCode } from '@hermes/core/protocol';
import { classifyFrame, errorFrame } from './frames.js';

const MAX = 1024;
const cls = (text: string, binary = false) => classifyFrame(Buffer.from(text), binary, MAX);

describe('classifyFrame', () => {
  it('recognizes requests, notifications and responses', () => {
    expect(cls('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      kind: 'request',
      id: 1,
      method: 'ping',
      params: undefined,
    });
    expect(cls('{"jsonrpc":"2.0","method":"x","params":{"a":1}}')).toMatchObject({
      kind: 'notification',
      method: 'x',
    });
    expect(cls('{"jsonrpc":"2.0","id":"srq-1","result":{"choice":"once"}}')).toMatchObject({
      kind: 'response',
      id: 'srq-1',
      result: { choice: 'once' },
    });
    expect(cls('{"jsonrpc":"2.0","id":"srq-2","error":{"code":-1,"message":"no"}}')).toMatchObject({
      kind: 'response',
      error: { code: -1, message: 'no' },
    });
  });

  it('maps garbage to the JSON-RPC error codes', () => {
    expect(cls('{nope')).toMatchObject({ kind: 'invalid', code: RpcErrorCode.ParseError, id: null });
    expect(cls('')).toMatchObject({ code: RpcErrorCode.ParseError });
    expect(cls('42')).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect(cls('null')).toMatchObject({ code: RpcErrorCode.InvalidRequest });
    expect(cls('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
    });
    expect(cls('{"id":3,"method":"ping"}')).toMatchObject({ code: RpcErrorCode.InvalidRequest, id: 3 });
    expect(cls('{"jsonrpc":"2.0","id":{},"method":"ping"}')).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
      id: null,
    });
    expect(cls('{"jsonrpc":"2.0","id":null,"method":"ping"}')).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
    });
    expect(cls('{"jsonrpc":"2.0","id":4,"method":7}')).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
      id: 4,
    });
    expect(cls('{"jsonrpc":"2.0","id":5}')).toMatchObject({ code: RpcErrorCode.InvalidRequest, id: 5 });
    expect(cls('{"jsonrpc":"2.0","id":6,"error":"bad"}')).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
    });
    expect(cls('{"a":1}', true)).toMatchObject({
      code: RpcErrorCode.InvalidRequest,
      message: expect.stringMatching(/binary/),
    });
  });

  it('refuses oversized frames with -32007, recovering only a leading top-level id', () => {
    const big = (prefix: string) => classifyFrame(Buffer.from(prefix + 'x'.repeat(MAX) + '"}}'), false, MAX);
    expect(big('{"jsonrpc":"2.0","id":17,"method":"prompt.submit","params":{"text":"')).toMatchObject({
      kind: 'invalid',
      code: RpcErrorCode.FrameTooLarge,
      id: 17,
    });
    expect(big('{"jsonrpc":"2.0","id":"r-9","params":{"text":"')).toMatchObject({ id: 'r-9' });
    // A nested "id" before the top-level one is never taken.
    expect(big('{"jsonrpc":"2.0","params":{"id":5,"text":"')).toMatchObject({ id: null });
  });

  it('builds error frames even for unserializable data', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(JSON.parse(errorFrame(1, -32603, 'boom', circular))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'boom' },
    });
  });
});
