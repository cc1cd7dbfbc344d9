/**
 * The daemon's server requests an ACP editor answers: a file tool's `file.read` / `file.write`
 * go through the editor's buffers when it offers `fs/*` (an error makes the daemon use the disk);
 * an approval is asked as `session/request_permission` with the approval choices (a file edit
 * shows its diff) and answered with `approval.answer`; a clarify question is asked with its
 * choices and a way to skip it, answered with `clarify.answer`. A question settled elsewhere first
 * (another client, the timeout, an interrupt) is withdrawn from the editor.
 */
import type {
  AgentContext,
  PermissionOption,
  RequestPermissionOutcome,
  RequestPermissionResponse,
  SessionUpdate,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { NO_REPLY, RpcCallError, type DaemonClient } from '@hermes/client';
import { RpcErrorCode } from '@hermes/core/constants';
import type { AcpSession } from './agent.js';
import { editContent } from './edit-diff.js';
import { text } from './event-map.js';
import { choiceOf, clarifyAnswer, clarifyOptions, permissionOptions } from './permission.js';

/** The agent's parts the requests use. */
export interface ServerRequestDeps {
  daemon: DaemonClient;
  /** One diagnostic line. */
  log: (line: string) => void;
  /** The editor session of a daemon session id (following compression aliases). */
  sessionOf(daemonId: string): AcpSession | undefined;
  /** The connected editor, once it connected. */
  editor(): AgentContext | undefined;
  /** What the editor's file system offers (from `initialize`). */
  editorFs(): { readTextFile: boolean; writeTextFile: boolean };
  /** Ids of requests already settled (`request.resolved` may come before the request's handler). */
  settled: ReadonlySet<string>;
  /** Sends session updates to the editor, in order. */
  send(sessionId: string, updates: readonly SessionUpdate[]): Promise<void>;
}

/** Registers the handlers of the daemon's server requests on `d.daemon` (see the file comment). */
export function serveServerRequests(d: ServerRequestDeps): void {
  const { daemon } = d;
  /**
   * Asks the editor one question as `session/request_permission`. Resolves with its outcome, or
   * null when the request was settled elsewhere first (another client, the timeout, an interrupt:
   * the editor's question is then withdrawn). A failed request counts as cancelled.
   */
  const askEditor = async (
    s: AcpSession,
    requestId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
  ): Promise<RequestPermissionOutcome | null> => {
    const editor = d.editor();
    if (d.settled.has(requestId) || !editor) return null;
    const asked = new AbortController();
    s.asking.set(requestId, asked);
    try {
      const answer: RequestPermissionResponse = await editor.request(
        'session/request_permission',
        { sessionId: s.id, toolCall, options },
        { cancellationSignal: asked.signal },
      );
      return asked.signal.aborted ? null : answer.outcome;
    } catch (err) {
      if (asked.signal.aborted) return null;
      d.log(`permission request failed (taken as cancelled): ${(err as Error).message}`);
      return { outcome: 'cancelled' };
    } finally {
      s.asking.delete(requestId);
    }
  };

  /** Sends an answer; a request settled meanwhile (-32003: someone else was first) is no error. */
  const answer = async (call: () => Promise<unknown>): Promise<boolean> => {
    try {
      await call();
      return true;
    } catch (err) {
      if (!(err instanceof RpcCallError && err.code === RpcErrorCode.RequestResolved))
        d.log(`answer not accepted: ${(err as Error).message}`);
      return false;
    }
  };

  // The file tools of an editor's session read and write through the editor when it offers fs/*:
  // the agent sees unsaved buffers and its edits land in them. An error makes the daemon use the
  // disk (client-files.ts there); a session of another client is never served through this editor.
  daemon.onServerRequest('file.read', async (p) => {
    const s = d.sessionOf(p.session_id);
    const editor = d.editor();
    if (!s || !editor || !d.editorFs().readTextFile) throw new Error('the editor does not serve this file');
    const r = await editor.request('fs/read_text_file', { sessionId: s.id, path: p.path });
    return { content: r.content };
  });
  daemon.onServerRequest('file.write', async (p) => {
    const s = d.sessionOf(p.session_id);
    const editor = d.editor();
    if (!s || !editor || !d.editorFs().writeTextFile) throw new Error('the editor does not serve this file');
    await editor.request('fs/write_text_file', { sessionId: s.id, path: p.path, content: p.content });
    return {};
  });

  // An approval: asked in the editor with the approval choices, answered with `approval.answer`.
  daemon.onServerRequest('approval.request', async (p): Promise<typeof NO_REPLY> => {
    const s = d.sessionOf(p.session_id);
    if (!s) return NO_REPLY;
    const toolCallId = s.translator.askingCall() ?? `approval-${p.request_id}`;
    const details = [p.description, ...(p.allows ?? []).map((a) => `"session"/"always" allow: ${a}`)];
    const outcome = await askEditor(
      s,
      p.request_id,
      {
        toolCallId,
        // a file edit (approvals.edits: ask) shows its diff; a command its description
        ...(p.edit
          ? {
              title: `Write ${p.edit.path}`,
              kind: 'edit' as const,
              content: [
                { type: 'content' as const, content: text(p.description) },
                ...editContent(p.edit, s.cwd),
              ],
            }
          : {
              title: `Run ${p.command.split('\n')[0]}`,
              kind: 'execute' as const,
              content: [{ type: 'content' as const, content: text(details.join('\n')) }],
            }),
        status: 'pending',
        rawInput: { command: p.command },
      },
      permissionOptions(p.choices),
    );
    if (!outcome) return NO_REPLY;
    const choice = choiceOf(outcome, p.choices);
    const ok = await answer(() =>
      daemon.request('approval.answer', { session_id: p.session_id, request_id: p.request_id, choice }),
    );
    if (ok && choice !== 'deny')
      void d.send(s.id, [{ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' }]);
    return NO_REPLY;
  });

  // A clarify question: its choices as the options, and a way to skip it (the model is told the
  // question was not answered and goes on; the user can answer in the next message).
  daemon.onServerRequest('clarify.request', async (p): Promise<typeof NO_REPLY> => {
    const s = d.sessionOf(p.session_id);
    if (!s) return NO_REPLY;
    const choices = p.choices ?? [];
    const outcome = await askEditor(
      s,
      p.request_id,
      {
        toolCallId: s.translator.runningCall('clarify') ?? `clarify-${p.request_id}`,
        title: p.question,
        kind: 'think',
        status: 'pending',
      },
      clarifyOptions(choices),
    );
    if (!outcome) return NO_REPLY;
    await answer(() =>
      daemon.request('clarify.answer', {
        session_id: p.session_id,
        request_id: p.request_id,
        answer: clarifyAnswer(outcome, choices),
      }),
    );
    return NO_REPLY;
  });
}
