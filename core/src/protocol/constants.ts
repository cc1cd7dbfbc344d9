/**
 * Values of the wire protocol that clients need at run time, kept free of zod (no imports) so a
 * client — the TUI bundle above all — can use them without loading the schemas: JSON-RPC error
 * codes, frame limit, server request id prefix, the event notification's name. The schema files
 * re-export them.
 */

/** Standard and application error codes. Application codes are in the -32000…-32099 range. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A method other than `initialize` before the handshake, or `initialize` twice. */
  NotInitialized: -32000,
  /** No such session (in this profile). */
  SessionNotFound: -32001,
  /** The session is being written by another process (one writer per session). */
  SessionLocked: -32002,
  /** An answer to a server request that was already resolved or has expired. */
  RequestResolved: -32003,
  /** The daemon is draining for shutdown and takes no new prompts. */
  ShuttingDown: -32004,
  /** No such profile. */
  ProfileNotFound: -32005,
  /** Configuration problem (broken config.yaml, bad key or value). */
  ConfigInvalid: -32006,
  /** A frame larger than the limit. */
  FrameTooLarge: -32007,
  /**
   * The profile exists but cannot be used now (its state.db is damaged); the message names the
   * file, what is wrong and how to recover. The daemon's other profiles are unaffected.
   */
  ProfileUnavailable: -32008,
  /**
   * The connection may not do this: `config.set` of a value that loosens the approval settings
   * from a connection not attached to a session of that profile with `capabilities.approvals`.
   */
  NotPermitted: -32009,
  /**
   * The session is running a turn (or `/compact`): `/undo`, `/retry`, `/rewind` and `/fork` wait
   * for it to end or be interrupted.
   */
  SessionBusy: -32010,
} as const;
export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

/** Largest accepted frame, bytes (a larger one gets an error, never a crash). */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** Prefix of ids of requests the daemon sends to clients (approvals, clarify). */
export const SERVER_REQUEST_ID_PREFIX = 'srq-';

/** Name of the JSON-RPC notification that carries events. */
export const EVENT_NOTIFICATION = 'event';
