/**
 * Edits shown before they are written (`approvals.edits: ask`) in a real terminal: `write_file`
 * and `patch` put a diff card up that waits like an approval; `o` writes the file, `d` leaves it
 * as it was and the model is told it was not written. Run `npm run build` first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];

describeTmux('edit diff cards (approvals.edits: ask) in the TUI', () => {
  let env: Record<string, string>;
  const work = mkdtempSync(join(tmpdir(), 'hermes-edit-card-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const fx = useTuiTmux('hermes-tui-edit-card', { cols: 110, rows: 45 }, (root) => {
    appendFileSync(join(root, 'config.yaml'), 'approvals:\n  edits: ask\n');
    env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1', OPENAI_API_KEY: '' };
  });
  const { tmux } = fx;

  it('answered yes the file is written; answered no it is not, and the model is told', async () => {
    const w = tmux.open('edit', tui('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    const created = join(work, 'created.txt');
    fx.model.push(
      {
        toolCalls: [{ name: 'write_file', arguments: { path: created, content: 'hello from the agent\n' } }],
      },
      { text: 'WRITE-DONE' },
    );
    tmux.type(w, 'create the file', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('✎ Write') && s.includes('+hello from the agent'), {
      timeoutMs: 15_000,
    });
    expect(existsSync(created)).toBe(false); // shown before written
    await tmux.waitFor(w, 'to answer. Esc denies.'); // armed: the card takes keys
    tmux.keys(w, 'o');
    await tmux.waitFor(w, 'WRITE-DONE', { timeoutMs: 15_000 });
    expect(readFileSync(created, 'utf8')).toBe('hello from the agent\n');

    const kept = join(work, 'kept.txt');
    writeFileSync(kept, 'keep this line\nand this\n');
    fx.model.push(
      {
        toolCalls: [
          {
            name: 'patch',
            arguments: { path: kept, old_string: 'keep this line', new_string: 'CHANGED line' },
          },
        ],
      },
      { text: 'PATCH-DONE' },
    );
    const n = fx.model.requests.length;
    tmux.type(w, 'change the other file', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('-keep this line') && s.includes('+CHANGED line'), {
      timeoutMs: 15_000,
    });
    await tmux.waitFor(w, 'to answer. Esc denies.');
    tmux.keys(w, 'd');
    await tmux.waitFor(w, 'PATCH-DONE', { timeoutMs: 15_000 });
    expect(readFileSync(kept, 'utf8')).toBe('keep this line\nand this\n');
    const toolMsg = (fx.model.requests[n + 1]!.body.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role === 'tool')
      .at(-1);
    expect(toolMsg?.content).toMatch(/kept\.txt was not written/);
  }, 60_000);
});
