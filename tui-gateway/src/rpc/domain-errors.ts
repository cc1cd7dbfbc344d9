/**
 * Errors of core that have a wire code of their own, whichever handler they come from (a
 * profile's broken config.yaml surfaces in `session.create`, `config.*`, `model.*`, `cron.*` …,
 * and must read the same everywhere).
 */
import { ConfigError } from '@hermes/core/config';
import { RpcErrorCode } from '@hermes/core/protocol';
import { SessionDBError } from '@hermes/core/state';
import { RpcMethodError } from './types.js';

/**
 * The JSON-RPC error for `err`, or undefined when it has no code of its own (then -32603):
 * `ConfigError` → -32006 ConfigInvalid (the message names the file and the key; `data: {file,
 * key?}`); a damaged state.db (`SessionDBError` with code `ECORRUPT`) → -32008 ProfileUnavailable
 * (the message names the file, what is wrong and how to recover; `data: {file}`).
 */
export function domainRpcError(err: unknown): RpcMethodError | undefined {
  if (err instanceof ConfigError) {
    return new RpcMethodError(RpcErrorCode.ConfigInvalid, err.message, {
      file: err.file,
      ...(err.key ? { key: err.key } : {}),
    });
  }
  if (err instanceof SessionDBError && err.code === 'ECORRUPT') {
    return new RpcMethodError(RpcErrorCode.ProfileUnavailable, err.message, { file: err.file });
  }
  return undefined;
}
