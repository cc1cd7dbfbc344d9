/**
 * A scripted editor for `hermes acp` tests: spawns `node bin/hermes acp` in a test root and talks
 * to it with the ACP SDK's client side, recording every `session/update` and answering
 * `session/request_permission` with a handler the test sets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { HERMES, childEnv, waitFor } from './gateway-process.js';

/** How the editor answers a permission request (`signal` aborts when the agent withdraws it). */
export type PermissionHandler = (
  req: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

/** A running `hermes acp` and the editor connected to it. */
export interface AcpEditor {
  child: ChildProcess;
  conn: ClientConnection;
  /** Every `session/update` received, in order. */
  updates: SessionNotification[];
  /** Every permission request received, in order. */
  permissions: RequestPermissionRequest[];
  /**
   * Open buffers by absolute path: `fs/read_text_file` answers from one (unsaved edits
   * included), else from the disk; `fs/write_text_file` sets the buffer and saves it to disk, as
   * an editor that writes through does.
   */
  buffers: Map<string, string>;
  /** Every `fs/*` request received, in order. */
  fsCalls: Array<{ method: 'read' | 'write'; path: string }>;
  /** What hermes acp wrote to stderr. */
  stderr(): string;
  /** Lines hermes acp wrote to stdout that are not JSON-RPC 2.0 messages (stdout is the protocol's). */
  strayStdout(): string[];
  /** Sets how permission requests are answered (default: reject once). */
  onPermission(handler: PermissionHandler): void;
  /** Updates of one session, optionally of one kind. */
  of(sessionId: string, kind?: SessionUpdate['sessionUpdate']): SessionUpdate[];
  /** Waits until an update of the session matches `pred`; returns it. */
  until(
    sessionId: string,
    pred: (u: SessionUpdate) => boolean,
    what: string,
    ms?: number,
  ): Promise<SessionUpdate>;
  /** The concatenated text of the session's `agent_message_chunk`s (from index `from` of its updates). */
  agentText(sessionId: string, from?: number): string;
  /** Sends `session/prompt` with one text block; resolves with the prompt's answer. */
  prompt(sessionId: string, text: string): Promise<PromptResponse>;
  /** Closes stdin and waits for the process to exit. */
  close(): Promise<number | null>;
}

/** Starts `hermes [-p PROFILE] acp` with `HERMES_HOME=root` and initializes an editor connection. */
export async function startAcpEditor(
  root: string,
  opts: { profile?: string; cwd?: string } = {},
): Promise<AcpEditor> {
  const args = [HERMES, ...(opts.profile ? ['-p', opts.profile] : []), 'acp'];
  const child = spawn(process.execPath, args, {
    env: childEnv(root),
    cwd: opts.cwd ?? root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  let handler: PermissionHandler = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
  const buffers = new Map<string, string>();
  const fsCalls: AcpEditor['fsCalls'] = [];
  const app = client({ name: 'scripted-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params, signal }) => {
      permissions.push(params);
      return handler(params, signal);
    })
    // after the update handler: each incoming message passes the handlers in order, and one more
    // ahead of it would delay recording the last update past the prompt's answer
    .onRequest('fs/read_text_file', ({ params }) => {
      fsCalls.push({ method: 'read', path: params.path });
      return { content: buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      fsCalls.push({ method: 'write', path: params.path });
      buffers.set(params.path, params.content);
      writeFileSync(params.path, params.content);
      return {};
    });
  const conn = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as unknown as Parameters<typeof ndJsonStream>[0],
      Readable.toWeb(child.stdout!) as unknown as Parameters<typeof ndJsonStream>[1],
    ),
  );
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const of = (sid: string, kind?: SessionUpdate['sessionUpdate']): SessionUpdate[] =>
    updates
      .filter((n) => n.sessionId === sid && (!kind || n.update.sessionUpdate === kind))
      .map((n) => n.update);
  return {
    child,
    conn,
    updates,
    permissions,
    buffers,
    fsCalls,
    stderr: () => err,
    strayStdout: () => out.split('\n').filter((line) => line !== '' && !isJsonRpc(line)),
    onPermission: (h) => (handler = h),
    of,
    until: (sid, pred, what, ms = 20_000) =>
      waitFor(() => of(sid).find(pred), `editor: ${what}\n--- hermes acp stderr ---\n${err}`, ms),
    agentText: (sid, from = 0) =>
      of(sid)
        .slice(from)
        .map((u) =>
          u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
        )
        .join(''),
    prompt: (sessionId, text) =>
      conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
    async close() {
      conn.close();
      child.stdin!.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}

/** The `initialize` request an editor sends (fs capabilities offered, protocol v1). */
export async function initializeEditor(ed: AcpEditor) {
  return ed.conn.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: { name: 'scripted-editor', version: '1.0.0' },
  });
}

/** Whether `line` is one JSON-RPC 2.0 message. */
function isJsonRpc(line: string): boolean {
  try {
    return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc === '2.0';
  } catch {
    return false;
  }
}
