/**
 * `hermes chat -q` through a running daemon (issue 3 "One writer per session"): the turn runs in
 * the daemon's live session, so attached TUIs see it live and the session has one writer. The
 * reply streams here exactly as in process; Ctrl+C interrupts the turn in the daemon (exit 130),
 * and so does a reader of stdout that went away (`| head`; exit 141, no stack trace).
 */
import type { AgentEvent, WireEvent } from '@hermes/core/protocol';
import type { DaemonClient } from '@hermes/tui-gateway/client/client';
import type { CliContext } from '../context.js';
import { EXIT_INTERRUPTED, type ChatOptions } from './run-chat.js';
import { askApprovalOnTerminal } from './ask-approval.js';
import type { ClosedOutput } from './closed-output.js';
import { createTextRenderer } from './text-renderer.js';

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
    const found = await client.call('session.list', { limit: 1000 });
    const match = found.sessions.find((s) => s.id === opts.session || s.title === opts.session);
    if (!match) throw new Error(`no session "${opts.session}" in profile ${ctx.home.profile}`);
    sessionId = match.id;
  } else if (opts.continue) {
    // the last interactive session, this folder's first: the daemon applies the same rule as
    // in process (SessionDB.continueSession)
    const [latest] = (await client.call('session.list', { continue_from: process.cwd() })).sessions;
    sessionId = latest
      ? latest.id
      : (await client.call('session.create', { source: 'cli', cwd: process.cwd() })).session.id;
  } else {
    sessionId = (await client.call('session.create', { source: 'cli', cwd: process.cwd() })).session.id;
  }

  const attach = await client.call('session.attach', { session_id: sessionId, history_limit: 1 });
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

  // Approvals of our turn: asked on a terminal, denied at once headless (as in process); the
  // first answer wins, so a TUI attached to the session may also answer.
  client.onServerRequest('approval.request', async (p) => {
    if (p.session_id !== sessionId) return { choice: 'deny' };
    const choice = process.stdin.isTTY ? await askApprovalOnTerminal(p) : 'deny';
    if (choice === 'deny' && !process.stdin.isTTY) {
      process.stderr.write(
        `  ✗ denied (no terminal to ask): ${p.command}\n    run with --yolo, or answer from an attached TUI (hermes tui --session ${sessionId})\n`,
      );
    }
    return { choice };
  });

  let promptId: string | undefined;
  let mine = false; // our turn has started: events belong to it
  const interruptOurTurn = (): void =>
    void client.call('session.interrupt', { session_id: sessionId }).catch(() => undefined);
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
    if (ev.type === 'turn.start' && ev.payload.prompt_id === promptId) {
      mine = true;
      if (output.closed) interruptOurTurn();
    }
    if (!mine) return;
    if (ev.type === 'turn.end' && ev.payload.prompt_id === promptId) return finish(String(ev.payload.status));
    if (ev.type === 'error') lastError = String(ev.payload.message ?? '');
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
    const submitted = await client.call('prompt.submit', { session_id: sessionId, text: opts.query ?? '' });
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
      process.stderr.write(`hermes: ${lastError ?? `the turn ended with status ${status}`}\n`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    await client.call('session.detach', { session_id: sessionId }).catch(() => undefined);
    await client.close();
  }
}
