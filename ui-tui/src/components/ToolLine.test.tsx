import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { renderInk } from '../testing/ink.js';
import type { ToolItem } from '../state/types.js';
import { ToolLine } from './ToolLine.js';

afterEach(() => cleanup());

const tool = (over: Partial<ToolItem> = {}): ToolItem => ({
  kind: 'tool',
  toolId: 't1',
  name: 'terminal',
  args: { command: 'ls -la' },
  summary: 'exit 0, 12 lines',
  ok: true,
  durationMs: 1234,
  ...over,
});

describe('ToolLine', () => {
  it('shows outcome, verb, argument summary, result and duration', async () => {
    const r = await renderInk(<ToolLine tool={tool()} width={80} />);
    expect(r.text()).toBe('✓ Ran ls -la → exit 0, 12 lines · 1.2s');
  });

  it('names a script by language and length, and a page read by its URL', async () => {
    const code = 'console.log(1)\nconsole.log(2)\nconsole.log(3)';
    const script = tool({
      name: 'execute_code',
      args: { code, language: 'javascript' },
      summary: 'exit 0 · 0 tool calls',
    });
    const r = await renderInk(<ToolLine tool={script} width={80} />);
    expect(r.text()).toBe('✓ Ran code javascript script, 3 lines → exit 0 · 0 tool calls · 1.2s');
    r.rerender(
      <ToolLine
        tool={tool({
          name: 'web_extract',
          args: { urls: ['https://a.example/x', 'https://b.example'] },
          summary: '2 pages',
        })}
        width={80}
      />,
    );
    await r.waitFor((f) => f.includes('Read page https://a.example/x +1 more → 2 pages'));
  });

  it('marks a failure and an unknown outcome', async () => {
    const r = await renderInk(<ToolLine tool={tool({ ok: false, summary: 'exit 2' })} />);
    expect(r.text()).toMatch(/^✗ Ran ls -la → exit 2 · 1\.2s$/);
    r.rerender(<ToolLine tool={tool({ ok: null, durationMs: null, summary: 'ls -la' })} />);
    await r.waitFor((f) => f.startsWith('•'));
    expect(r.text()).toBe('• Ran ls -la');
  });

  it('shows a running tool with its progress and running time', async () => {
    const running = {
      toolId: 't2',
      name: 'terminal',
      args: { command: 'make' },
      startedAt: 1_000,
      progress: 'compiling x.c',
    };
    const r = await renderInk(<ToolLine tool={running} now={3_500} />);
    expect(r.text()).toBe('⋯ Running make → compiling x.c · 2.5s');
  });

  it('shows a file edit as a diff', async () => {
    const edit = tool({
      name: 'patch',
      args: { path: 'src/a.ts', old_string: 'x = 1', new_string: 'x = 2' },
      summary: 'src/a.ts: 1 occurrence replaced',
    });
    const r = await renderInk(<ToolLine tool={edit} />);
    expect(r.text().split('\n')).toEqual([
      '✓ Edited src/a.ts → src/a.ts: 1 occurrence replaced · 1.2s',
      '  --- a/src/a.ts',
      '  +++ b/src/a.ts',
      '  -x = 1',
      '  +x = 2',
    ]);
  });

  it('expands to the result text: its first and last lines around the number left out', async () => {
    const detail = Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n');
    const r = await renderInk(<ToolLine tool={tool({ detail: `${detail}\u001b[2J` })} expanded />);
    const lines = r.text().split('\n');
    expect(lines).toHaveLength(22);
    expect(lines[1]).toBe('  row 0');
    expect(lines[10]).toBe('  row 9');
    expect(lines[11]).toBe('  … 10 more lines …');
    expect(lines[12]).toBe('  row 20');
    expect(lines.at(-1)).toBe('  row 29[2J'); // the escape character is gone
    expect(r.lastFrame()).not.toContain('\u001b[2J');
    // collapsed: the line alone
    r.rerender(<ToolLine tool={tool({ detail })} />);
    await r.waitFor((f) => !f.includes('row 0'));
    expect(r.text()).toBe('✓ Ran ls -la → exit 0, 12 lines · 1.2s');
  });

  it('words a command the approval guard refused as blocked, not as run', async () => {
    const r = await renderInk(
      <ToolLine
        tool={tool({
          args: { command: 'git reset --hard HEAD' },
          ok: false,
          summary: 'blocked (denied)',
          blocked: 'denied',
        })}
      />,
    );
    expect(r.text()).toBe('✗ Blocked git reset --hard HEAD (denied) · 1.2s');
  });

  it('words a running command whose approval is open as waiting for approval', async () => {
    const waiting = {
      toolId: 't3',
      name: 'terminal',
      args: { command: 'rm -rf build' },
      startedAt: 1_000,
      awaitingApproval: true,
    };
    const r = await renderInk(<ToolLine tool={waiting} now={3_000} />);
    expect(r.text()).toBe('⋯ Waiting for approval: rm -rf build · 2.0s');
  });

  it('cuts a long command to the width and strips escape sequences', async () => {
    const r = await renderInk(
      <ToolLine
        tool={tool({ args: { command: `echo \u001b]52;c;aGk=\u0007${'x'.repeat(200)}` }, summary: '' })}
        width={40}
      />,
    );
    expect(r.text().length).toBeLessThanOrEqual(40);
    expect(r.lastFrame()).not.toContain('\u001b]52');
  });
});

describe('ToolLine: the todo list', () => {
  const list = {
    todos: [
      { id: '1', content: 'Read the code', status: 'completed' },
      { id: '2', content: 'Write the fix', status: 'in_progress' },
      { id: '3', content: 'Run the tests', status: 'pending' },
    ],
    summary: { total: 3 },
  };

  it('shows the items with their status under one space-separated line', async () => {
    const t = tool({ name: 'todo', args: { todos: [] }, summary: '1/3 done', detail: JSON.stringify(list) });
    const r = await renderInk(<ToolLine tool={t} width={80} />);
    expect(r.text().split('\n')).toEqual([
      '✓ Updated todos → 1/3 done · 1.2s',
      '  ☒ Read the code',
      '  ◐ Write the fix',
      '  ☐ Run the tests',
    ]);
  });

  it('falls back to the arguments of a call that wrote the whole list', async () => {
    const t = tool({ name: 'todo', args: { todos: list.todos }, summary: '1/3 done', durationMs: null });
    const r = await renderInk(<ToolLine tool={t} width={80} />);
    expect(r.text()).toContain('◐ Write the fix');
    // a merge names only the changed items: not the list
    r.rerender(<ToolLine tool={{ ...t, args: { todos: list.todos.slice(0, 1), merge: true } }} width={80} />);
    await r.waitFor((f) => !f.includes('Write the fix'));
    expect(r.text()).toBe('✓ Updated todos → 1/3 done');
  });
});
