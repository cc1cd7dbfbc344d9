import { describe, expect, it } from 'vitest';
import { planFromTodo, toolDiff, toolKind, toolLocations, toolTitle } from './tool-map.js';

describe('tool-map', () => {
  it('gives each built-in tool its ACP kind, and other for the rest', () => {
    expect(
      ['read_file', 'patch', 'write_file', 'terminal', 'search_files', 'web_extract', 'todo', 'mcp_x_y'].map(
        toolKind,
      ),
    ).toEqual(['read', 'edit', 'edit', 'execute', 'search', 'fetch', 'think', 'other']);
  });

  it('titles a call with the tool verb and its summary', () => {
    expect(toolTitle('read_file', 'src/a.ts')).toBe('Reading src/a.ts');
    expect(toolTitle('read_file', 'src/a.ts', true)).toBe('Read src/a.ts');
    expect(toolTitle('mcp_x_y', '')).toBe('mcp_x_y');
  });

  it('resolves locations against the session folder; a read carries its line', () => {
    expect(toolLocations('read_file', { path: 'src/a.ts', offset: 40 }, '/w')).toEqual([
      { path: '/w/src/a.ts', line: 40 },
    ]);
    expect(toolLocations('write_file', { path: '/abs/b.ts' }, '/w')).toEqual([{ path: '/abs/b.ts' }]);
    expect(toolLocations('terminal', { command: 'ls' }, '/w')).toEqual([]);
  });

  it('shows a patch as the diff of its fragment and a write as the new content', () => {
    expect(toolDiff('patch', { path: 'a.txt', old_string: 'x', new_string: 'y' }, '/w')).toEqual([
      { type: 'diff', path: '/w/a.txt', oldText: 'x', newText: 'y' },
    ]);
    expect(toolDiff('write_file', { path: 'n.txt', content: 'new' }, '/w')).toEqual([
      { type: 'diff', path: '/w/n.txt', oldText: null, newText: 'new' },
    ]);
    expect(toolDiff('read_file', { path: 'a.txt' }, '/w')).toEqual([]);
  });

  it('reads the todo result as a plan; cancelled counts as completed; anything else is no plan', () => {
    const detail = JSON.stringify({
      todos: [
        { id: '1', content: 'a', status: 'completed' },
        { id: '2', content: 'b', status: 'in_progress' },
        { id: '3', content: 'c', status: 'cancelled' },
        { id: '4', content: 'd', status: 'pending' },
      ],
    });
    expect(planFromTodo(detail)?.map((e) => e.status)).toEqual([
      'completed',
      'in_progress',
      'completed',
      'pending',
    ]);
    expect(planFromTodo('not json')).toBeNull();
    expect(planFromTodo('{"x":1}')).toBeNull();
  });
});
