/**
 * A terminal joins the editor's live session: a scripted editor drives `hermes acp`, and
 * `hermes tui --session ID` in tmux (a real terminal, `CI=false`) shows the editor's turn
 * streaming and the editor's approval question (answered in the editor, the TUI's card goes; the
 * other way round is acp-editor.test.ts), and a prompt typed in the TUI reaches the editor as a
 * user message with its reply.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initializeEditor, startAcpEditor, type AcpEditor } from './support/acp-editor.js';
import { tempRoot, waitFor } from './support/gateway-process.js';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux, tuiEnv } from './support/tui-tmux-fixture.js';

/** A reply long enough to be seen streaming: `START w1 … wN END`. */
const longReply = (tag: string, words: number): string =>
  [`${tag}-START`, ...Array.from({ length: words }, (_, i) => `w${i + 1}`), `${tag}-END`].join(' ');

describeTmux('hermes acp with a TUI on the same session (tmux)', () => {
  const fx = useTuiTmux('hermes-acp-tui', { cols: 120, rows: 40 });
  const { tmux } = fx;
  let work: string;
  let ed: AcpEditor;
  let sid: string;
  let pane: string;

  beforeAll(async () => {
    work = tempRoot('hermes-acp-tui-project-');
    ed = await startAcpEditor(fx.root, { cwd: work });
    await initializeEditor(ed);
    sid = (await ed.conn.agent.request('session/new', { cwd: work, mcpServers: [] })).sessionId;
    const env = tuiEnv(fx.root);
    pane = tmux.open('joined', [process.execPath, HERMES_BIN, 'tui', '--session', sid], env);
    await tmux.waitFor(pane, (s) => s.includes('Type a message') && s.includes('2 clients'));
  });

  afterAll(async () => {
    expect(await ed?.close()).toBe(0);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the TUI shows the editor’s turn as it streams', async () => {
    fx.model.push({ text: longReply('EDITOR', 30), chunkSize: 8, delayMs: 20 });
    const res = ed.prompt(sid, 'a prompt from the editor');
    // seen mid-stream in the terminal, not only at the end
    await tmux.waitFor(pane, (s) => s.includes('EDITOR-START') && !s.includes('EDITOR-END'));
    expect((await res).stopReason).toBe('end_turn');
    const screen = await tmux.waitFor(pane, 'EDITOR-END', { scrollback: true });
    expect(screen).toContain('› a prompt from the editor');
  });

  it('an approval is asked on both sides; the editor answers first and the TUI’s card goes', async () => {
    const target = join(work, 'scratch');
    mkdirSync(target);
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf scratch' } }] },
      { text: 'EDITOR-APPROVED' },
    );
    let answerNow: () => void = () => {};
    const shownInTui = new Promise<void>((resolve) => (answerNow = resolve));
    ed.onPermission(async () => {
      await shownInTui; // the TUI shows the same question first
      return { outcome: { outcome: 'selected', optionId: 'once' } };
    });
    const res = ed.prompt(sid, 'remove scratch');
    await waitFor(() => ed.permissions.length > 0, 'the editor asked');
    await tmux.waitFor(pane, (s) => s.includes('Approval needed') && s.includes('[o] once'));
    answerNow();
    const screen = await tmux.waitFor(pane, (s) =>
      s.includes('✓ Approved once (answered in another window)'),
    );
    expect(screen).not.toContain('Approval needed');
    expect((await res).stopReason).toBe('end_turn');
    expect(existsSync(target)).toBe(false);
    await tmux.waitFor(pane, 'EDITOR-APPROVED', { scrollback: true });
  });

  it('a prompt typed in the TUI reaches the editor with its reply', async () => {
    fx.model.push({ text: 'answered for the terminal' });
    tmux.type(pane, 'typed in the terminal', 'Enter');
    await ed.until(
      sid,
      (u) =>
        u.sessionUpdate === 'user_message_chunk' &&
        u.content.type === 'text' &&
        u.content.text === 'typed in the terminal',
      'the terminal’s prompt',
    );
    await waitFor(() => ed.agentText(sid).includes('answered for the terminal'), 'the reply in the editor');
  });
});
