/**
 * JSON-RPC 2.0 envelopes of the wire protocol: one JSON object per WebSocket text frame. The
 * error codes and limits are in the zod-free constants.ts (re-exported here).
 */
import { z } from 'zod';

export { MAX_FRAME_BYTES, RpcErrorCode, SERVER_REQUEST_ID_PREFIX } from './constants.js';

/** Request/response id: clients use numbers or strings; server requests use `srq-…` strings. */
export const RpcId = z.union([z.string(), z.number()]);
export type RpcId = z.infer<typeof RpcId>;

export const RpcError = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcError = z.infer<typeof RpcError>;

export const RpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: RpcId,
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type RpcRequest = z.infer<typeof RpcRequest>;

export const RpcNotification = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type RpcNotification = z.infer<typeof RpcNotification>;

export const RpcSuccess = z.object({ jsonrpc: z.literal('2.0'), id: RpcId, result: z.unknown() });
export const RpcFailure = z.object({ jsonrpc: z.literal('2.0'), id: RpcId.nullable(), error: RpcError });
export type RpcSuccess = z.infer<typeof RpcSuccess>;
export type RpcFailure = z.infer<typeof RpcFailure>;
