/** `delegate_task` argument handling: tasks, tool subsets, budgets, limits. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DelegateCapability, SubagentTask } from './delegate-types.js';
import { delegateTool, resolveTasks, selectTools } from './delegate.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';

const available = ['terminal', 'read_file', 'write_file', 'patch', 'search_files', 'todo', 'mcp_gh_issues'];

describe('resolveTasks', () => {
  it('makes one task from goal, with every available tool and the configured budget', () => {
    expect(resolveTasks({ goal: ' fix it ', context: 'in src/' }, available, 50)).toEqual([
      { index: 0, goal: 'fix it', context: 'in src/', tools: available, maxIterations: 50 },
    ]);
  });

  it('uses top-level fields as defaults of tasks, caps max_iterations, expands toolsets', () => {
    const tasks = resolveTasks(
      {
        toolsets: ['file'],
        max_iterations: 80,
        model: 'm1',
        tasks: [
          { goal: 'a' },
          { goal: 'b', toolsets: ['terminal', 'mcp-gh'], max_iterations: 5, model: 'm2' },
        ],
      },
      available,
      50,
    );
    expect(tasks).toEqual([
      {
        index: 0,
        goal: 'a',
        tools: ['read_file', 'write_file', 'patch', 'search_files'],
        maxIterations: 50,
        model: 'm1',
      },
      { index: 1, goal: 'b', tools: ['terminal', 'mcp_gh_issues'], maxIterations: 5, model: 'm2' },
    ]);
  });

  it('refuses a missing goal, blocked or unknown tools, and unknown toolsets, naming them', () => {
    expect(() => resolveTasks({}, available, 50)).toThrow(/"goal" is required/);
    expect(() => resolveTasks({ tasks: [{ context: 'x' }] }, available, 50)).toThrow(/tasks\[0\]\.goal/);
    expect(() => selectTools(available, undefined, ['delegate_task'])).toThrow(/cannot use "delegate_task"/);
    expect(() => selectTools(available, undefined, ['nope'])).toThrow(/no tool "nope".*available: terminal/);
    expect(() => selectTools(available, ['nosuch'], undefined)).toThrow(/unknown toolset "nosuch"/);
    expect(() => selectTools(available, ['web'], undefined)).toThrow(/toolset "web" has no tools available/);
  });
});

describe('delegate_task handler', () => {
  const ctxWith = (delegate?: DelegateCapability) =>
    makeToolContext(mkdtempSync(join(tmpdir(), 'delegate-')), delegate ? { delegate } : {});

  it('says it is unavailable without a delegate capability', async () => {
    const r = await runTool(delegateTool, JSON.stringify({ goal: 'x' }), ctxWith());
    expect(r).toMatchObject({ ok: false, content: expect.stringMatching(/not available/) });
  });

  it('refuses more tasks than delegation.max_parallel', async () => {
    const ran: SubagentTask[] = [];
    const cap: DelegateCapability = {
      availableTools: available,
      maxParallel: 2,
      maxIterations: 50,
      run: async (t) => {
        ran.push(t);
        return { subagentId: 's', status: 'complete', summary: 'ok', durationMs: 1 };
      },
    };
    const args = { tasks: [{ goal: 'a' }, { goal: 'b' }, { goal: 'c' }] };
    const r = await runTool(delegateTool, JSON.stringify(args), ctxWith(cap));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/3 tasks given, at most 2 per call \(delegation\.max_parallel\)/);
    expect(ran).toEqual([]);
  });

  it('returns one result per task with status and summary', async () => {
    const cap: DelegateCapability = {
      availableTools: available,
      maxParallel: 3,
      maxIterations: 50,
      run: async (t) => ({
        subagentId: `s${t.index}`,
        status: t.index === 0 ? 'complete' : 'max_turns',
        summary: `did ${t.goal}`,
        durationMs: 1500,
      }),
    };
    const r = await runTool(
      delegateTool,
      JSON.stringify({ tasks: [{ goal: 'a' }, { goal: 'b' }] }),
      ctxWith(cap),
    );
    expect(r.ok).toBe(false);
    expect(r.summary).toBe('1/2 sub-agents completed');
    expect(JSON.parse(r.content)).toEqual({
      results: [
        { task_index: 0, goal: 'a', status: 'complete', summary: 'did a', duration_seconds: 1.5 },
        { task_index: 1, goal: 'b', status: 'max_turns', summary: 'did b', duration_seconds: 1.5 },
      ],
    });
  });
});
