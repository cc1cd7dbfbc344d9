/**
 * `@` references in `hermes tui`, end to end in a real terminal (tmux, `CI=false`) against the
 * real daemon and the scripted model: a person types `@` and part of a name, the completion popup
 * appears, Tab accepts; the model's request carries the file's content; `@folder/`, `@diff` and
 * `@staged` together; a reference that cannot be resolved keeps the message in the composer.
 * Every wait polls the pane with a deadline.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from './support/fake-model-server.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux, shq } from './support/tmux.js';
import { useTuiTmux, tuiEnv } from './support/tui-tmux-fixture.js';

let project: string;
let env: Record<string, string>;

/** `hermes tui ARGS` started in the project folder (its session's folder). */
const tuiInProject = (...args: string[]): string[] => [
  'sh',
  '-c',
  `cd ${shq(project)} && exec ${shq(process.execPath)} ${shq(HERMES_BIN)} tui ${args.map(shq).join(' ')}`,
];
const put = (rel: string, text: string): void => {
  mkdirSync(dirname(join(project, rel)), { recursive: true });
  writeFileSync(join(project, rel), text);
};
const git = (...args: string[]): void => {
  execFileSync('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args], { cwd: project });
};
/** The text of the last user message the model was sent. */
const lastUser = (r: RecordedRequest): string => {
  const msgs = (r.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const u = msgs.filter((m) => m.role === 'user').pop();
  return typeof u?.content === 'string' ? u.content : JSON.stringify(u?.content);
};
/** Types like a person: one key at a time, `gapMs` apart. */
async function typeSlowly(send: (ch: string) => void, text: string, gapMs = 60): Promise<void> {
  for (const ch of text) {
    send(ch);
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

const gitOk = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
/** `describeTmux`, also skipped (and saying so) without git, which the test project needs. */
const describeTmuxGit = gitOk
  ? describeTmux
  : (title: string, suite: () => void) => describe.skip(`${title} [skipped: git is not installed]`, suite);

describeTmuxGit('@ references in hermes tui (tmux)', () => {
  const fx = useTuiTmux('hermes-refs-test', { cols: 120, rows: 40 }, (root) => {
    env = tuiEnv(root);
  });
  const { tmux } = fx;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'hermes-refs-project-'));
    put('src/app.ts', 'export const APP_MARKER_7731 = 1;\n');
    put('src/components/CompletionPopup.tsx', 'export {};\n');
    put('src/util/strings.ts', 'export const UNSTAGED_BEFORE = 0;\n');
    put('notes/todo.md', 'STAGED_BEFORE\n');
    put('secret.txt', 'IGNORED_SECRET\n');
    put('.gitignore', 'secret.txt\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    put('src/util/strings.ts', 'export const UNSTAGED_AFTER_5521 = 0;\n');
    put('notes/todo.md', 'STAGED_AFTER_8832\n');
    git('add', 'notes/todo.md');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('typing @ and part of a name shows completions, Tab accepts, the model gets the file', async () => {
    const w = tmux.open('main', tuiInProject('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    fx.model.push({ text: 'REPLY-ONE' });
    await typeSlowly((c) => tmux.type(w, c), 'explain @ap');
    const popup = await tmux.waitFor(w, '❯ 📄 @src/app.ts', { what: 'the completion popup with src/app.ts' });
    expect(popup).toContain('› explain @ap');
    expect(popup).not.toContain('secret.txt');
    tmux.keys(w, 'Tab');
    await tmux.waitFor(w, (s) => s.includes('› explain @src/app.ts') && s.includes('📄 src/app.ts (34 B)'));
    const before = fx.model.requests.length;
    await typeSlowly((c) => tmux.type(w, c), 'please');
    tmux.keys(w, 'Enter');
    const done = await tmux.waitFor(w, 'REPLY-ONE');
    const [req] = (await fx.model.waitForRequests(before + 1)).slice(before);
    const sent = lastUser(req!);
    expect(sent).toMatch(/^explain @src\/app\.ts please\n\n<attached-context>\n/);
    expect(sent).toContain('export const APP_MARKER_7731 = 1;');
    expect(sent).toMatch(/<attached-file id="[0-9a-f]{12}" source="src\/app.ts">/);
    // the transcript shows the typed text and the chip, never the content
    expect(done).toContain('› explain @src/app.ts please');
    expect(done).toContain('📄 src/app.ts (34 B)');
    expect(done).not.toContain('APP_MARKER_7731');
  });

  it('@folder/, @diff and @staged attach a listing and the two git diffs', async () => {
    const w = 'hermes:main';
    fx.model.push({ text: 'REPLY-TWO' });
    const before = fx.model.requests.length;
    await typeSlowly((c) => tmux.type(w, c), 'review @src/ @diff @staged', 40);
    tmux.keys(w, 'Enter');
    const done = await tmux.waitFor(w, 'REPLY-TWO');
    const [req] = (await fx.model.waitForRequests(before + 1)).slice(before);
    const sent = lastUser(req!);
    expect(sent).toMatch(
      /<attached-folder id="\w+" source="src\/">\napp\.ts\ncomponents\/CompletionPopup\.tsx\nutil\/strings\.ts\n/,
    );
    expect(sent).toMatch(/<attached-diff [^>]*>[^]*\+export const UNSTAGED_AFTER_5521 = 0;/);
    expect(sent).toMatch(/<attached-staged [^>]*>[^]*\+STAGED_AFTER_8832/);
    expect(sent).not.toMatch(/<attached-diff [^>]*>[^<]*STAGED_AFTER_8832/);
    expect(done).toMatch(/📁 src\/ \(3 entries/);
    expect(done).toMatch(/± diff \(\d/);
    expect(done).toMatch(/± staged \(\d/);
  });

  it('a reference that cannot be resolved is named, nothing is sent, the text stays in the composer', async () => {
    const w = 'hermes:main';
    const before = fx.model.requests.length;
    tmux.type(w, 'read @src/missing.ts now');
    tmux.keys(w, 'Enter');
    const s = await tmux.waitFor(w, 'cannot attach @src/missing.ts: no such file or folder');
    await tmux.waitFor(w, '› read @src/missing.ts now', { what: 'the message back in the composer' });
    expect(s).toContain('Message not sent');
    expect(fx.model.requests.length).toBe(before);
  });

  it('a second TUI and sessions show print the stored message as text and chips', async () => {
    const other = tmux.open('second', tuiInProject('--continue'), env);
    const seen = await tmux.waitFor(other, (s) => s.includes('REPLY-TWO') && s.includes('● connected'), {
      scrollback: true,
    });
    expect(seen).toContain('› explain @src/app.ts please');
    expect(seen).toContain('📄 src/app.ts (34 B)');
    expect(seen).toMatch(/📁 src\/ \(3 entries/);
    expect(seen).not.toContain('APP_MARKER_7731');
    const list = await runHermes(fx.root, ['sessions', 'list', '--json']);
    const [session] = JSON.parse(list.stdout) as Array<{ id: string }>;
    const show = await runHermes(fx.root, ['sessions', 'show', session!.id]);
    expect(show.stdout).toContain('  explain @src/app.ts please\n  📄 src/app.ts (34 B)');
    expect(show.stdout).not.toContain('APP_MARKER_7731');
  });
});
