/**
 * `hermes chat -q` through a running daemon: the turn runs in the daemon's live session, so
 * attached TUIs see it live and the session has one writer (one writer per session). The
 * reply streams here exactly as in process; Ctrl+C interrupts the turn in the daemon (exit 130),
 * and so does a reader of stdout that went away (`| head`; exit 141, no stack trace).
 */
import { resolve } from 'node:path';
import { NO_REPLY, RpcCallError, type DaemonClient } from '@hermes/client';
import {
  RpcErrorCode,
  type AgentEvent,
  type ApprovalChoice,
  type WireEvent,
  type WireEventOf,
} from '@hermes/core/protocol';
import type { CliContext } from '../context.js';
import { EXIT_INTERRUPTED, type ChatOptions } from './run-chat.js';
import { askApprovalOnTerminal } from './ask-approval.js';
import type { ClosedOutput } from './closed-output.js';
import { createTextRenderer } from './text-renderer.js';
import { hermesCommand, withCommandForm } from '../command-form.js';

/**
 * Runs one turn through the daemon.
 * @returns the exit code (0 complete, 1 error, 130 interrupted, 141 stdout closed).
 */
export async function runChatViaDaemon(
  ctx: CliContext,
  client: DaemonClient,
  opts: ChatOptions,
  output: ClosedOutput,
): Promise<number> {
  let sessionId: string;
  if (opts.session) {
    const found = await client.request('session.list', { limit: 1000 });
    const match = found.sessions.find((s) => s.id === opts.session || s.title === opts.session);
    if (!match) throw new Error(`no session "${opts.session}" in profile ${ctx.home.profile}`);
    sessionId = match.id;
  } else if (opts.continue) {
    // the last interactive session, this folder's first: the daemon applies the same rule as
    // in process (SessionDB.continueSession)
    const [latest] = (await client.request('session.list', { continue_from: process.cwd() })).sessions;
    sessionId = latest
      ? latest.id
      : (await client.request('session.create', { source: 'cli', cwd: process.cwd() })).session.id;
  } else {
    sessionId = (await client.request('session.create', { source: 'cli', cwd: process.cwd() })).session.id;
  }

  const attach = await client.request('session.attach', { session_id: sessionId, history_limit: 1 });
  const render: (e: AgentEvent) => void = opts.json
    ? (e) =>
        process.stdout.write(
          `${JSON.stringify({ type: e.type, session_id: sessionId, payload: e.payload })}\n`,
        )
    : createTextRenderer(process.stdout, process.stderr);
  if (opts.json) {
    const s = attach.session;
    process.stdout.write(
      `${JSON.stringify({ type: 'session.info', session_id: sessionId, payload: { session_id: sessionId, title: s.title, model: s.model, cwd: s.cwd, via: 'daemon' } })}\n`,
    );
  }

  // Approvals of our turn: asked on a terminal, denied at once headless (as in process) with the
  // reason `no_approver`, so the model is told no one could approve it here, not that the user
  // said no. The answer goes as `approval.answer`; the first answer wins, so a TUI attached to the
  // session may answer first: the prompt then ends and says so.
  const asking = new Map<string, AbortController>();
  client.onServerRequest('approval.request', async (p) => {
    if (p.session_id !== sessionId) return NO_REPLY;
    const asked = new AbortController();
    asking.set(p.request_id, asked);
    try {
      const headless = !process.stdin.isTTY;
      const choice = headless ? 'deny' : await askApprovalOnTerminal(p, { signal: asked.signal });
      if (asked.signal.aborted) return NO_REPLY; // settled elsewhere: `request.resolved` said so
      // answered here: the `request.resolved` our answer leads to is not another client's
      asking.delete(p.request_id);
      if (headless) {
        process.stderr.write(
          `  ✗ denied (no terminal to ask): ${p.command}\n` +
            `    blocked: no one could approve it here; to allow it, run ${hermesCommand()} chat in a terminal and approve it, ` +
            `or open this session in the TUI (${hermesCommand()} tui --session ${sessionId}) and ask again there\n`,
        );
      }
      return await answerApproval(client, sessionId, p.request_id, choice, headless);
    } finally {
      asking.delete(p.request_id);
    }
  });
  /** `request.resolved` of an approval being asked here: another client (or the timeout) was first. */
  const resolvedElsewhere = (ev: WireEventOf<'request.resolved'>): void => {
    const asked = asking.get(String(ev.payload.request_id));
    if (!asked) return;
    asked.abort();
    process.stderr.write(`  ${settledBy(String(ev.payload.by ?? ''), ev.payload.choice)}\n`);
  };

  let promptId: string | undefined;
  let mine = false; // our turn has started: events belong to it
  const interruptOurTurn = (): void =>
    void client.request('session.interrupt', { session_id: sessionId }).catch(() => undefined);
  // `| head` closed stdout: stop our turn once it runs (never a turn queued before it)
  output.onClose(() => {
    if (mine) interruptOurTurn();
  });
  let lastError: string | undefined;
  let finish: (status: string) => void = () => {};
  const done = new Promise<string>((resolve) => (finish = resolve));
  // The daemon may emit our turn.start before the prompt.submit answer arrives: hold events
  // until the prompt id is known.
  const early: WireEvent[] = [];
  const handle = (ev: WireEvent): void => {
    if (ev.session_id !== sessionId) return;
    if (ev.type === 'request.resolved') return resolvedElsewhere(ev);
    if (ev.type === 'turn.start' && ev.payload.prompt_id === promptId) {
      mine = true;
      if (output.closed) interruptOurTurn();
    }
    if (!mine) return;
    if (ev.type === 'turn.end' && ev.payload.prompt_id === promptId) return finish(String(ev.payload.status));
    if (ev.type === 'error' && ev.payload.kind !== 'notice') lastError = String(ev.payload.message ?? '');
    if (
      ev.type === 'turn.start' ||
      ev.type === 'turn.end' ||
      ev.type === 'prompt.queued' ||
      ev.type === 'session.info'
    )
      return;
    render(ev as unknown as AgentEvent);
  };
  client.onEvent((ev) => (promptId === undefined ? early.push(ev) : handle(ev)));
  void client.closed.then(() => finish('disconnected'));

  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    interruptOurTurn();
  };
  process.on('SIGINT', onSigint);
  try {
    const submitted = await client.request('prompt.submit', {
      session_id: sessionId,
      text: opts.query ?? '',
      // the daemon reads and checks the files; paths are this shell's
      ...(opts.images?.length
        ? { attachments: opts.images.map((p) => ({ kind: 'image' as const, path: resolve(p) })) }
        : {}),
    });
    promptId = submitted.prompt_id;
    for (const ev of early.splice(0)) handle(ev);
    if (submitted.status === 'queued')
      process.stderr.write('  … queued behind the running turn of this session\n');
    const status = await done;
    if (output.closed) return output.exitCode;
    if (status === 'interrupted') return EXIT_INTERRUPTED;
    if (status === 'disconnected') {
      process.stderr.write(
        'hermes: lost the connection to the daemon; the turn may still be running there\n',
      );
      return 1;
    }
    if (status !== 'complete') {
      process.stderr.write(
        `hermes: ${withCommandForm(lastError ?? `the turn ended with status ${status}`)}\n`,
      );
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    await client.request('session.detach', { session_id: sessionId }).catch(() => undefined);
    await client.close();
  }
}

/** How an approval settled elsewhere reads on the terminal. */
function settledBy(by: string, choice: unknown): string {
  if (by === 'timeout') return '✗ no answer in time: denied';
  if (by === 'interrupt') return '✗ the turn was interrupted: denied';
  return choice === 'deny' || typeof choice !== 'string'
    ? '✗ denied in another window'
    : `✓ approved (${choice}) in another window`;
}

/**
 * Sends the terminal's answer as `approval.answer` and says on stderr when it did not apply
 * (-32003: another client or the timeout was first; any other error). An older daemon without
 * the method gets it as the reply to its server request.
 * @param noApprover the deny is this process's for want of a terminal (reason `no_approver`).
 */
async function answerApproval(
  client: DaemonClient,
  sessionId: string,
  requestId: string,
  choice: ApprovalChoice,
  noApprover: boolean,
): Promise<{ choice: ApprovalChoice; reason?: 'no_approver' } | typeof NO_REPLY> {
  const reason = noApprover && choice === 'deny' ? ({ reason: 'no_approver' } as const) : {};
  try {
    await client.request('approval.answer', {
      session_id: sessionId,
      request_id: requestId,
      choice,
      ...reason,
    });
    return NO_REPLY;
  } catch (err) {
    if (err instanceof RpcCallError && err.code === RpcErrorCode.MethodNotFound) return { choice, ...reason }; // an older daemon
    if (err instanceof RpcCallError && err.code === RpcErrorCode.RequestResolved) {
      const d = (err.data ?? {}) as { by?: unknown; choice?: unknown };
      const line = typeof d.by === 'string' ? settledBy(d.by, d.choice) : 'the request was no longer open';
      process.stderr.write(`  your answer came too late: ${line}\n`);
      return NO_REPLY;
    }
    process.stderr.write(`  ✗ your answer was not accepted: ${(err as Error).message}\n`);
    return NO_REPLY;
  }
}
