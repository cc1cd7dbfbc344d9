/**
 * Classifies one incoming WebSocket frame into a JSON-RPC request, notification, response or an
 * invalid frame with the error to answer (one JSON-RPC 2.0 object per text frame; frames over a limit, invalid JSON and non-request objects get JSON-RPC errors, never a
 * crash). Also builds the outgoing frames. Pure: no I/O.
 */
import { RpcError, RpcErrorCode, type RpcId } from '@hermes/core/protocol';

/** A frame after classification. */
export type IncomingFrame =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: RpcId; result: unknown; error?: RpcError }
  | { kind: 'invalid'; id: RpcId | null; code: number; message: string };

/**
 * Recognizes the `id` of an oversized frame without parsing it, only when it appears among the
 * leading top-level scalar members (`{"jsonrpc":"2.0","id":7,…`), so a nested `"id"` is never taken.
 */
const LEADING_ID_RE =
  /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,200}"\s*,)*\s*"id"\s*:\s*("[^"\\]{0,200}"|-?\d{1,15})\s*[,}]/;

function sniffId(data: Buffer): RpcId | null {
  const m = LEADING_ID_RE.exec(data.subarray(0, 512).toString('utf8'));
  if (!m?.[1]) return null;
  return m[1].startsWith('"') ? m[1].slice(1, -1) : Number(m[1]);
}

function validId(id: unknown): id is RpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/**
 * Classifies a frame.
 * @param data the frame payload as ws delivers it (Buffer; ws has already checked UTF-8 of text).
 * @param isBinary true for a binary frame (refused: -32600).
 * @param maxBytes frames larger than this get -32007 FrameTooLarge (MAX_FRAME_BYTES).
 */
export function classifyFrame(data: Buffer, isBinary: boolean, maxBytes: number): IncomingFrame {
  if (isBinary) {
    return {
      kind: 'invalid',
      id: null,
      code: RpcErrorCode.InvalidRequest,
      message: 'binary frames are not accepted: send one JSON-RPC object per text frame',
    };
  }
  if (data.length > maxBytes) {
    return {
      kind: 'invalid',
      id: sniffId(data),
      code: RpcErrorCode.FrameTooLarge,
      message: `frame of ${data.length} bytes exceeds the limit of ${maxBytes} bytes`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch (err) {
    return {
      kind: 'invalid',
      id: null,
      code: RpcErrorCode.ParseError,
      message: `parse error: ${(err as Error).message}`,
    };
  }
  return classifyValue(value);
}

/** Classifies an already parsed JSON value (see `classifyFrame`). */
export function classifyValue(value: unknown): IncomingFrame {
  const invalid = (message: string, id: RpcId | null = null): IncomingFrame => ({
    kind: 'invalid',
    id,
    code: RpcErrorCode.InvalidRequest,
    message,
  });
  if (Array.isArray(value)) return invalid('batch requests are not supported: send one object per frame');
  if (value === null || typeof value !== 'object') return invalid('not a JSON-RPC object');
  const obj = value as Record<string, unknown>;
  const id = validId(obj.id) ? obj.id : null;
  if (obj.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id);
  if ('method' in obj) {
    if (typeof obj.method !== 'string' || obj.method === '') {
      return invalid('"method" must be a non-empty string', id);
    }
    if (!('id' in obj)) return { kind: 'notification', method: obj.method, params: obj.params };
    if (id === null) return invalid('"id" must be a string or a number');
    return { kind: 'request', id, method: obj.method, params: obj.params };
  }
  if ('result' in obj || 'error' in obj) {
    if (id === null) return invalid('a response needs a string or number "id"');
    if ('error' in obj) {
      const parsed = RpcError.safeParse(obj.error);
      if (!parsed.success) return invalid('"error" must be {code: integer, message: string, data?}', id);
      return { kind: 'response', id, result: undefined, error: parsed.data };
    }
    return { kind: 'response', id, result: obj.result };
  }
  return invalid('neither a request ("method") nor a response ("result"/"error")', id);
}

/** `{"jsonrpc":"2.0","id":…,"result":…}`. @throws TypeError when `result` cannot be serialized. */
export function successFrame(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/** `{"jsonrpc":"2.0","id":…,"error":{code,message,data?}}`; `id` null when it could not be read. */
export function errorFrame(id: RpcId | null, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  try {
    return JSON.stringify({ jsonrpc: '2.0', id, error });
  } catch {
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

/** A notification `{"jsonrpc":"2.0","method":…,"params":…}`. */
export function notificationFrame(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

/** A request `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` (server requests, client calls). */
export function requestFrame(id: RpcId, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}
